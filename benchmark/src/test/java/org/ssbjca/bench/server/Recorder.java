package org.ssbjca.bench.server;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Where the benchmark's message-driven beans (of either messaging system) report each delivery: when it started and
 * when its transaction committed (an interposed synchronization), and for the latency run, when each numbered
 * message reached {@code onMessage}. One run at a time; the control bean arms it before a run.
 */
public final class Recorder {

    private static volatile Run run = new Run(0, 0);
    /** The run in which this thread last delivered: its first delivery in a run is noted once. */
    private static final ThreadLocal<Run> LAST_RUN = new ThreadLocal<>();
    /** Whether the runs armed from now on measure their delivery threads ({@link ThreadCosts}). */
    private static volatile boolean measureThreads;

    private Recorder() {
    }

    /**
     * @param expected committed messages that end the run
     * @param latencyIds numbered messages of a latency run (0 otherwise)
     */
    static void arm(int expected, int latencyIds) {
        arm(expected, latencyIds, true);
    }

    /**
     * @param expected committed messages that end the run
     * @param latencyIds numbered messages of a latency run (0 otherwise)
     * @param recorded whether a latency run records its {@link LatencyEvent}s (false: a run that only settles)
     */
    static void arm(int expected, int latencyIds, boolean recorded) {
        run = new Run(expected, latencyIds, recorded);
    }

    static Run current() {
        return run;
    }

    /**
     * @param on whether the runs armed from now on read each delivery thread's CPU time and allocated bytes at each
     *     delivery ({@link ThreadCosts}), for drains compared with each other only
     */
    static void measureThreads(boolean on) {
        measureThreads = on;
    }

    /**
     * A delivery of {@code messages} messages starts, in the transaction the registry sees.
     *
     * @param registry the container's registry
     * @param messages how many messages the delivery holds
     * @param firstBody the first message's body (the latency run's number is at its start)
     */
    public static void delivered(TransactionSynchronizationRegistry registry, int messages, String firstBody) {
        long now = System.nanoTime();
        Run r = run;
        if (r.threads != null) {
            r.threads.delivery();
        }
        r.firstStart.compareAndSet(0, now);
        if (LAST_RUN.get() != r) {
            LAST_RUN.set(r);
            r.threadStarts.add(now);
        }
        r.delivered.addAndGet(messages);
        if (r.receivedAt != null && firstBody != null) {
            int id = idOf(firstBody);
            if (id >= 0 && id < r.receivedAt.length) {
                r.receivedAt[id] = now;
                if (r.recorded) {
                    LatencyEvent.record(r.number, id, false);
                }
            }
        }
        // One synchronization per transaction, which counts every delivery made in it: a per-message phase proves
        // from these counts that each transaction took exactly one message.
        AtomicInteger inTransaction = (AtomicInteger) registry.getResource(Recorder.class);
        if (inTransaction != null) {
            inTransaction.addAndGet(messages);
            return;
        }
        AtomicInteger counted = new AtomicInteger(messages);
        registry.putResource(Recorder.class, counted);
        registry.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    r.committedTransaction(counted.get());
                } else {
                    r.rolledBack.incrementAndGet();
                }
            }
        });
    }

    static int idOf(String body) {
        int end = body.indexOf(';');
        if (end <= 0) {
            return -1;
        }
        try {
            return Integer.parseInt(body.substring(0, end));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** One run's counters. */
    static final class Run {
        private static final AtomicInteger RUNS = new AtomicInteger();
        /** Tells this run's {@link LatencyEvent}s from those of other runs in one recording. */
        final int number = RUNS.incrementAndGet();
        final int expected;
        final AtomicLong firstStart = new AtomicLong();
        /** {@link System#nanoTime()} of each delivery thread's first delivery in this run. */
        private final ConcurrentLinkedQueue<Long> threadStarts = new ConcurrentLinkedQueue<>();
        final AtomicInteger delivered = new AtomicInteger();
        final AtomicInteger rolledBack = new AtomicInteger();
        /**
         * Committed transactions (the high 32 bits) and the messages they took (the low 32 bits), counted in one step:
         * a reading of both while later transactions commit (more messages queued than the run expects) agrees.
         */
        private final AtomicLong commits = new AtomicLong();
        /** The most messages one committed transaction took. */
        final AtomicInteger mostPerTransaction = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(1);
        /**
         * {@link System#nanoTime()} of the commits that brought the committed messages to a tenth, two tenths, ...
         * nine tenths of {@link #expected} (0 for one not reached): a drain's rate without its start and its end.
         */
        final AtomicLongArray tenths = new AtomicLongArray(9);
        final long[] sentAt;
        final long[] receivedAt;
        volatile long doneAt;

        /** Whether its {@link LatencyEvent}s are recorded. */
        final boolean recorded;
        /** Its delivery threads' costs, or null when not measured ({@link Recorder#measureThreads}). */
        final ThreadCosts threads = measureThreads ? new ThreadCosts() : null;

        Run(int expected, int latencyIds) {
            this(expected, latencyIds, true);
        }

        Run(int expected, int latencyIds, boolean recorded) {
            this.expected = expected;
            this.recorded = recorded;
            this.sentAt = latencyIds > 0 ? new long[latencyIds] : null;
            this.receivedAt = latencyIds > 0 ? new long[latencyIds] : null;
        }

        void committedTransaction(int messages) {
            mostPerTransaction.accumulateAndGet(messages, Math::max);
            int total = committed(commits.addAndGet((1L << 32) + messages));
            markTenths(total - messages, total);
            if (total >= expected && total - messages < expected) {
                doneAt = System.nanoTime();
                done.countDown();
            }
        }

        /**
         * Marks the tenths of {@link #expected} that the committed count passed from {@code before} to {@code total}.
         */
        private void markTenths(int before, int total) {
            if (expected < 10) {
                return;
            }
            long from = (long) before * 10 / expected;
            long to = Math.min(9, (long) total * 10 / expected);
            if (to > from) {
                long now = System.nanoTime();
                for (long k = from + 1; k <= to; k++) {
                    tenths.set((int) k - 1, now);
                }
            }
        }

        /** @return the committed transactions and their messages, read together: {messages, transactions} */
        long[] commits() {
            long both = commits.get();
            return new long[] {committed(both), both >>> 32};
        }

        private static int committed(long commits) {
            return (int) (commits & 0xFFFF_FFFFL);
        }

        /** @return each delivery thread's first delivery, nanoseconds after the run's first, in order */
        long[] threadStarts() {
            long first = firstStart.get();
            return threadStarts.stream().mapToLong(t -> t - first).sorted().toArray();
        }

        boolean await(long millis) throws InterruptedException {
            return done.await(millis, TimeUnit.MILLISECONDS);
        }
    }
}
