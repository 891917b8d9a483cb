import type { z } from 'zod';

/** A schema with the description that schemas/site.json gives editors for it. */
export const described = <S extends z.ZodType>(schema: S, description: string): S => schema.describe(description) as S;
