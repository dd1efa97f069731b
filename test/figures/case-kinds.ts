/**
 * The kinds of conformance case (test/conformance/cases.ts), in the order its figures count them. Named here,
 * with the figures that count them, so the conformance run writes figures without the figures reading it.
 */
export const CASE_KINDS = ['calculator', 'programs', 'loan', 'utilities', 'bad', 'badZips'] as const;
export type CaseKind = (typeof CASE_KINDS)[number];
