/**
 * Speaker gender from the median fundamental frequency of the voiced frames. Adult male speech centres
 * around 85–155 Hz and adult female speech around 165–255 Hz; the decision is a logistic curve in log-F0
 * centred on {@link GENDER_BOUNDARY_HZ} (a ±1.3× pitch change from the boundary gives 0.9 / 0.1), shrunk
 * toward 0.5 when there is little voiced speech to judge from (full weight from
 * {@link FULL_CONFIDENCE_VOICED_SECONDS} of voiced frames). The scores are probabilities that sum to 1.
 */
import type { GenderClassificationResponse } from '../../protocol/gender.js';

/** F0 at which both genders are equally likely, Hz. */
export const GENDER_BOUNDARY_HZ = 160;
/** Log-F0 scale of the logistic: ln(1.3) / logit(0.9). */
const LOG_SCALE = Math.log(1.3) / Math.log(9);
/** Voiced seconds from which the score is not shrunk. */
export const FULL_CONFIDENCE_VOICED_SECONDS = 0.5;

/** The decision part of a classification result. */
export type GenderDecision = Pick<GenderClassificationResponse, 'predicted_gender' | 'confidence'> & {
  prediction: { female: number; male: number };
};

/** Classifies a speaker from the median F0 (Hz) of `voicedSeconds` of voiced speech. */
export function classifyGender(medianF0Hz: number, voicedSeconds: number): GenderDecision {
  const logistic = 1 / (1 + Math.exp(-Math.log(medianF0Hz / GENDER_BOUNDARY_HZ) / LOG_SCALE));
  const weight = Math.min(1, Math.max(0, voicedSeconds / FULL_CONFIDENCE_VOICED_SECONDS));
  const female = round4(0.5 + (logistic - 0.5) * weight);
  const male = round4(1 - female);
  return { predicted_gender: female >= 0.5 ? 'female' : 'male', confidence: Math.max(female, male), prediction: { female, male } };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
