import { format, resolveConfig } from 'prettier';
import { renderModelCard, type ModelCard } from './model-card.ts';

/**
 * model-card.md as written next to the card's JSON: the rendered card, formatted as `npm run lint` expects, so
 * a fresh or re-rendered card passes `prettier --check` as it is. `target` is the file's path (for its config).
 */
export async function formattedModelCard(card: ModelCard, target: string): Promise<string> {
  return format(renderModelCard(card), { ...(await resolveConfig(target)), filepath: target });
}
