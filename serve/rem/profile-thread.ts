import { serveThreadJobs } from '../../lib/thread-pool.ts';
import { committedSurrogate } from './committed-surrogate.ts';
import { profileAnswer, type ProfileJob, type ProfileResult } from './profile-savings.ts';

// One /rem/profile worker thread: its own surrogate session and sampler tables; everything that comes
// from a snapshot arrives with the job, so a thread answers any snapshot's request as it was pinned.
const surrogate = committedSurrogate();
serveThreadJobs<ProfileJob, ProfileResult>(async ({ body, county, rates, factors }) =>
  profileAnswer(body, { county, rates, factors, surrogate: await surrogate }),
);
