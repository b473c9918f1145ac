package org.ssbjca.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The throttled redelivery of dead letters: the rate is held, measured with a clock the test controls (the job's
 * waits advance it; each redelivery may take time too); failures are counted and the job goes on; cancel stops it;
 * a bad rate is refused naming the value; one job at a time per activation.
 */
class RedeliveryJobTest {

    /** A clock that only moves when the job waits or a redelivery takes time. */
    static final class FakePacer implements RedeliveryJob.Pacer {
        long now = 1_000_000_000L;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void await(CountDownLatch cancelled, long nanos) {
            if (cancelled.getCount() > 0) {
                now += nanos;
            }
        }
    }

    private static List<Long> ids(int n) {
        return LongStream.rangeClosed(1, n).boxed().toList();
    }

    /** Runs 1,000 letters at 50 per second; each redelivery takes what {@code millis} says. */
    private static List<Long> startTimes(java.util.function.LongUnaryOperator millis) {
        FakePacer clock = new FakePacer();
        List<Long> times = new ArrayList<>();
        RedeliveryJob<Long> job = new RedeliveryJob<>("A", "group g", ids(1000), 50, id -> {
            times.add(clock.now);
            clock.now += TimeUnit.MILLISECONDS.toNanos(millis.applyAsLong(id));
            return true;
        }, clock);
        job.run();
        assertEquals(1000, job.info().getRedelivered());
        assertEquals("DONE", job.info().getState());
        return times;
    }

    /** @return the most start times that fall in any one second */
    private static int mostInOneSecond(List<Long> times) {
        long second = TimeUnit.SECONDS.toNanos(1);
        int most = 0;
        for (int i = 0, j = 0; i < times.size(); i++) {
            while (times.get(i) - times.get(j) >= second) {
                j++;
            }
            most = Math.max(most, i - j + 1);
        }
        return most;
    }

    /** 1,000 dead letters at 50 per second to a bean that takes 3 ms: 50 in every second, done in 999 / 50 s. */
    @Test
    void aThousandLettersAtFiftyPerSecondAreRedeliveredAtThatRate() {
        List<Long> times = startTimes(id -> 3);
        assertEquals(50, mostInOneSecond(times), "the most redeliveries in any one second");
        assertEquals(999 / 50.0, (times.get(999) - times.get(0)) / 1e9, 0.001, "the job's length, seconds");
    }

    /**
     * A bean that sometimes takes longer than the interval (45 ms, every 7th letter) slows the job; no burst follows
     * to catch up: every start is at least 20 ms after the one before.
     */
    @Test
    void aSlowBeanSlowsTheJobWithoutABurstAfterwards() {
        List<Long> times = startTimes(id -> id % 7 == 0 ? 45 : 3);
        assertTrue(mostInOneSecond(times) <= 50, "at most 50 in a second: " + mostInOneSecond(times));
        long shortest = Long.MAX_VALUE;
        for (int i = 1; i < times.size(); i++) {
            shortest = Math.min(shortest, times.get(i) - times.get(i - 1));
        }
        assertEquals(TimeUnit.MILLISECONDS.toNanos(20), shortest, "the shortest gap between two starts");
    }

    @Test
    void aLetterTheBeanFailsAgainIsCountedAndTheJobGoesOn() {
        RedeliveryJob<Long> job = new RedeliveryJob<>("A", "sel", ids(10), 100, id -> id % 2 == 0, new FakePacer());
        job.run();
        assertEquals(5, job.info().getRedelivered());
        assertEquals(5, job.info().getFailed());
        assertEquals("DONE", job.info().getState());
        assertTrue(job.info().getEndedAt() != null);
    }

    @Test
    void cancelStopsBeforeTheNextLetter() {
        List<RedeliveryJob<Long>> self = new ArrayList<>();
        RedeliveryJob<Long> job = new RedeliveryJob<>("A", "sel", ids(100), 10, id -> {
            if (id == 7) {
                self.get(0).cancel();
            }
            return true;
        }, new FakePacer());
        self.add(job);
        job.run();
        assertEquals("CANCELLED", job.info().getState());
        assertEquals(7, job.info().getRedelivered());
        assertFalse(job.running());
    }

    @Test
    void aRedeliveryThatCannotBeMadeEndsTheJobSayingWhy() {
        RedeliveryJob<Long> job = new RedeliveryJob<>("A", "sel", ids(5), 10, id -> {
            if (id == 3) {
                throw new IllegalStateException("the activation is paused: resume it before redelivering");
            }
            return true;
        }, new FakePacer());
        job.run();
        assertEquals("FAILED", job.info().getState());
        assertEquals(2, job.info().getRedelivered());
        assertEquals("the activation is paused: resume it before redelivering", job.info().getError());
    }

    @Test
    void aRateOfZeroNegativeNotANumberOrAboveTheMostIsRefusedNamingIt() {
        for (double bad : new double[] {0, -1, Double.NaN, 1001, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new RedeliveryJob<>("A", "sel", ids(1), bad, id -> true, new FakePacer()));
            assertEquals("messagesPerSecond must be over 0 and at most 1000, was " + bad, e.getMessage());
        }
        assertEquals(0.5, RedeliveryJob.checkedRate(0.5));
    }

    /** A second job is refused while the first runs; once it ended, the next may start. */
    @Test
    void oneJobAtATimePerActivation() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        RedeliveryJobs jobs = new RedeliveryJobs(org.ssbjca.backend.BackgroundRunner.daemonThreads());
        assertNull(jobs.current());
        assertFalse(jobs.cancel(), "nothing to cancel");
        jobs.start(new RedeliveryJob<>("A", "first", ids(3), 1000, id -> {
            try {
                return release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, RedeliveryJob.Pacer.SYSTEM));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> jobs.start(new RedeliveryJob<>("A", "second", ids(1), 1, id -> true, new FakePacer())));
        assertEquals("a redelivery is running (first): cancel it or wait for it to end", e.getMessage());
        assertTrue(jobs.cancel());
        release.countDown();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> !"RUNNING".equals(jobs.current().getState()));
        assertEquals("CANCELLED", jobs.current().getState());
        jobs.start(new RedeliveryJob<>("A", "second", ids(1), 1, id -> true, new FakePacer()));
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> "DONE".equals(jobs.current().getState()));
        assertEquals("second", jobs.current().getDescription());
    }

    @Test
    void aJobTheContainerRefusesEndsFailed() {
        RedeliveryJobs jobs = new RedeliveryJobs((name, task, refused) -> refused.run());
        jobs.start(new RedeliveryJob<>("A", "sel", ids(2), 1, id -> true, new FakePacer()));
        assertEquals("FAILED", jobs.current().getState());
        assertEquals("the container's work manager had no thread for it", jobs.current().getError());
    }
}
