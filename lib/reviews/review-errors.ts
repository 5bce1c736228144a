/**
 * What the review store refuses, as DomainError codes: lib/http/api-v1-status.ts (the one code →
 * status table) answers them, so the handlers map nothing by hand.
 */
import { DomainError } from '@/lib/errors/domain-error';

type ReviewStoreErrorCode = 'NOT_FOUND' | 'UNDO_NOT_POSSIBLE' | 'REOPEN_NOT_POSSIBLE' | 'REVIEW_CLAIMED' | 'VALIDATION_ERROR';

export class ReviewError extends DomainError<ReviewStoreErrorCode> {}

export const reviewErrors = {
  notFound: (id: string) => new ReviewError('NOT_FOUND', `No review item with id ${id}.`),
  undoNotPossible: (message: string) => new ReviewError('UNDO_NOT_POSSIBLE', message),
  reopenNotPossible: (id: string, status: string) =>
    new ReviewError('REOPEN_NOT_POSSIBLE', `Review item ${id} has no decision to reopen (it is ${status}).`),
  claimed: (id: string, by: string, at: Date) =>
    new ReviewError('REVIEW_CLAIMED', `Review item ${id} is claimed by ${by} since ${at.toISOString()}.`),
  invalidCursor: () => new ReviewError('VALIDATION_ERROR', "Field 'cursor': not a cursor from a previous page"),
  unknownReasonCode: (code: string) =>
    new ReviewError('VALIDATION_ERROR', `Field 'reason_code': '${code.slice(0, 100)}' is not one of REVIEW_REASON_CODES`),
};

/** Whether `err` is the review store's refusal with `code`. */
export const isReviewError = (err: unknown, code: ReviewStoreErrorCode): boolean => DomainError.is(err) && err.code === code;
