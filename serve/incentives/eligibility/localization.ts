import type { Language } from '../../../schemas/incentives/enums.ts';
import type { Localized } from '../../../schemas/incentives/records.ts';

/** The text in the requested language, falling back to English where no translation exists. */
export const tr = (text: Localized, language: Language): string => text[language] ?? text.en;
