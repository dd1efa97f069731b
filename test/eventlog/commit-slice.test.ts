import { KafkaJSBrokerNotFound, KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { commitSlice } from '../../eventlog/kafka-log.ts';

/** What kafkajs's retrier rejects a commit with once it gives up: a non-retriable error caused by the last one. */
function gaveUp(cause: Error): KafkaJSNonRetriableError {
  // kafkajs's constructors take more than its typings name.
  const Wrapper = KafkaJSNonRetriableError as unknown as new (
    e: Error,
    options: { cause: Error },
  ) => KafkaJSNonRetriableError;
  return new Wrapper(cause, { cause });
}

/** The broker refused the commit as not retriable. */
function refusedCommit(type: string, code: number, message: string): KafkaJSNonRetriableError {
  return gaveUp(new KafkaJSProtocolError({ type, code, retriable: false, message } as unknown as Error));
}

const OFFSETS = [{ topic: 'e2e.rem-work-units', partition: 3, offset: '42' }];

describe('commitSlice', () => {
  it('commits the offsets it is given', async () => {
    const committed: unknown[] = [];
    await commitSlice({ commitOffsets: async (offsets) => void committed.push(offsets) }, OFFSETS);
    expect(committed).toEqual([OFFSETS]);
  });

  it('throws the refusal itself when the group moved on, so that kafkajs rejoins it', async () => {
    const thrown = refusedCommit('ILLEGAL_GENERATION', 22, 'Specified group generation id is not valid');
    const error = await commitSlice({ commitOffsets: () => Promise.reject(thrown) }, OFFSETS).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KafkaJSProtocolError);
    expect(error).toMatchObject({ type: 'ILLEGAL_GENERATION', code: 22 });
    expect(error).toBe(thrown.cause);
  });

  it("throws a coordinator it cannot reach as NOT_COORDINATOR_FOR_GROUP, so that kafkajs finds the group's new one", async () => {
    // Its retries asked a coordinator that died, and then the metadata no longer listed it.
    const BrokerNotFound = KafkaJSBrokerNotFound as unknown as new (message: string) => Error;
    const lost = new BrokerNotFound('Broker 1 not found in the cached metadata');
    const error = await commitSlice({ commitOffsets: () => Promise.reject(gaveUp(lost)) }, OFFSETS).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      type: 'NOT_COORDINATOR_FOR_GROUP',
      message: "the group's coordinator cannot be reached (Broker 1 not found in the cached metadata)",
      cause: lost,
    });
  });

  it('throws any other failure as it came', async () => {
    const thrown = refusedCommit('TOPIC_AUTHORIZATION_FAILED', 29, 'Not authorized to access topics');
    await expect(commitSlice({ commitOffsets: () => Promise.reject(thrown) }, OFFSETS)).rejects.toBe(thrown);
    const down = new Error('connect ECONNREFUSED 127.0.0.1:34661');
    await expect(commitSlice({ commitOffsets: () => Promise.reject(down) }, OFFSETS)).rejects.toBe(down);
  });
});
