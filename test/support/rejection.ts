/**
 * The error body a write was rejected with, for engine tests that assert Strapi's answer to a
 * refused write. Anything other than a ValidationError or ApplicationError is rethrown, and a
 * write that succeeds fails the test.
 */
import { ApplicationError, ValidationError, type ErrorBody } from '../../templates/runtime/errors.ts';

export async function rejection(promise: Promise<unknown>): Promise<ErrorBody> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ValidationError || error instanceof ApplicationError) return error.toBody();
    throw error;
  }
  throw new Error('expected the write to be rejected');
}
