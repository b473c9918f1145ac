package org.ssbjca.management;

import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.ssbjca.support.AdapterLog;

/**
 * An operator's redelivery of chosen dead letters, or re-queue of chosen set-aside table rows, at a limited rate: each
 * one is handed over no earlier than 1 / rate seconds after the one before it started, so that no second holds more
 * than {@code rate} of them; a slow bean (or database) slows the job, and no burst follows to catch up.
 * One the bean fails again (or a row no longer set aside) is counted as failed; the job goes on. It stops early when
 * cancelled (the one in progress finishes) or when a redelivery cannot be made (the activation paused or stopped, the
 * database unreachable). Runs on one background thread ({@link #run}); {@link #cancel} and {@link #info} from any
 * thread. Kept in memory only: a restart of the server or a redeploy ends it, and what was not yet handed over stays
 * where it was.
 *
 * @param <K> what identifies one: a dead letter's id, a row's key
 */
final class RedeliveryJob<K> implements Runnable {

    private static final AdapterLog LOG = AdapterLog.of(RedeliveryJob.class);

    /** The highest rate a job accepts, messages per second. */
    static final double MAX_RATE = 1000;

    /** What a job hands over: the rate's name and the log lines differ. */
    enum Kind {
        /** Dead letters, delivered to the bean again one transaction each. */
        DEAD_LETTERS("messagesPerSecond"),
        /** Set-aside table rows, given back to the table's readers (attempts back to 0) one statement each. */
        SET_ASIDE_ROWS("rowsPerSecond");

        private final String rateName;

        Kind(String rateName) {
            this.rateName = rateName;
        }

        /**
         * @param rate a rate asked for
         * @return it, when over 0 and at most {@value #MAX_RATE} per second
         * @throws IllegalArgumentException otherwise, naming it
         */
        double checkedRate(double rate) {
            if (!(rate > 0) || rate > MAX_RATE) {
                throw new IllegalArgumentException(rateName + " must be over 0 and at most " + (int) MAX_RATE
                        + ", was " + rate);
            }
            return rate;
        }

        void started(String activation, String what, int total, double rate) {
            if (this == DEAD_LETTERS) {
                LOG.redeliveryJobStarted(activation, what, total, rate);
            } else {
                LOG.requeueJobStarted(activation, what, total, rate);
            }
        }

        void ended(String activation, String what, State state, int done, int failed, int total, String why) {
            if (this == DEAD_LETTERS) {
                LOG.redeliveryJobEnded(activation, what, state, done, failed, total, why);
            } else {
                LOG.requeueJobEnded(activation, what, state, done, failed, total, why);
            }
        }
    }

    /** The state of a job. */
    enum State {
        /** Not yet started, or redelivering. */
        RUNNING,
        /** Every letter was handed over. */
        DONE,
        /** An operator cancelled it. */
        CANCELLED,
        /** A redelivery could not be made; {@code error} says why. */
        FAILED
    }

    /** How the job tells time and waits: the system's clock in the server, one a test controls in tests. */
    interface Pacer {
        /** Returns a monotonic time in nanoseconds. */
        long nanoTime();

        /**
         * Waits for the time to pass, or until the latch opens (cancellation), whichever comes first.
         *
         * @param cancelled opens when the job is cancelled
         * @param nanos how long
         * @throws InterruptedException when interrupted
         */
        void await(CountDownLatch cancelled, long nanos) throws InterruptedException;

        /** The system's clock. */
        Pacer SYSTEM = new Pacer() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void await(CountDownLatch cancelled, long nanos) throws InterruptedException {
                cancelled.await(nanos, TimeUnit.NANOSECONDS);
            }
        };
    }

    private final Kind kind;
    private final String activation;
    private final String description;
    private final List<K> ids;
    private final double rate;
    private final Predicate<K> redeliver;
    private final Pacer pacer;
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final Instant created = Instant.now();
    private volatile State state = State.RUNNING;
    private volatile int redelivered;
    private volatile int failed;
    private volatile String error;
    private volatile Instant ended;

    /**
     * A redelivery of dead letters.
     *
     * @param activation the activation's name, for the log
     * @param description what is redelivered (a group's key, or a selection), for the operator
     * @param ids the dead letters, in the order to redeliver them
     * @param rate messages per second, over 0 and at most {@value #MAX_RATE}
     * @param redeliver redelivers one letter: true when the bean took it and it left the table; throws
     *        {@link IllegalStateException} when no redelivery can be made
     * @param pacer the clock
     * @throws IllegalArgumentException if the rate is out of range, naming it
     */
    RedeliveryJob(String activation, String description, List<K> ids, double rate, Predicate<K> redeliver,
            Pacer pacer) {
        this(Kind.DEAD_LETTERS, activation, description, ids, rate, redeliver, pacer);
    }

    /**
     * @param kind what it hands over
     * @param activation the activation's name, for the log
     * @param description what is handed over (a group's key, or a selection), for the operator
     * @param ids what to hand over, in that order
     * @param rate per second, over 0 and at most {@value #MAX_RATE}
     * @param redeliver hands one over: true when it was taken (the bean took the letter, the row was given back);
     *        throws {@link IllegalStateException} when none can be
     * @param pacer the clock
     * @throws IllegalArgumentException if the rate is out of range, naming it
     */
    RedeliveryJob(Kind kind, String activation, String description, List<K> ids, double rate,
            Predicate<K> redeliver, Pacer pacer) {
        this.kind = kind;
        this.activation = activation;
        this.description = description;
        this.ids = List.copyOf(ids);
        this.rate = kind.checkedRate(rate);
        this.redeliver = redeliver;
        this.pacer = pacer;
    }

    /**
     * @param rate a rate of messages asked for
     * @return it, when over 0 and at most {@value #MAX_RATE} messages per second
     * @throws IllegalArgumentException otherwise, naming it
     */
    static double checkedRate(double rate) {
        return Kind.DEAD_LETTERS.checkedRate(rate);
    }

    @Override
    @SuppressWarnings("NonAtomicVolatileUpdate") // the counts are written by this one thread only, read by any
    public void run() {
        kind.started(activation, description, ids.size(), rate);
        long interval = (long) Math.ceil(1e9 / rate);
        long next = pacer.nanoTime();
        try {
            for (int k = 0; k < ids.size() && cancelled.getCount() > 0; k++) {
                long wait = next - pacer.nanoTime();
                if (wait > 0) {
                    pacer.await(cancelled, wait);
                }
                if (cancelled.getCount() == 0) {
                    break;
                }
                next = pacer.nanoTime() + interval;
                if (redeliver.test(ids.get(k))) {
                    redelivered++;
                } else {
                    failed++;
                }
            }
            state = cancelled.getCount() == 0 ? State.CANCELLED : State.DONE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted");
        } catch (RuntimeException e) {
            fail(e.getMessage() == null ? e.toString() : e.getMessage());
        } finally {
            ended = Instant.now();
            kind.ended(activation, description, state, redelivered, failed, ids.size(),
                    error == null ? "" : " (" + error + ")");
        }
    }

    private void fail(String why) {
        error = why;
        state = State.FAILED;
    }

    /** Ends a job the runner will never run (the container had no thread for it). */
    void refused() {
        cancelled.countDown();
        fail("the container's work manager had no thread for it");
        ended = Instant.now();
    }

    /** Stops the job before its next letter; the one in progress finishes. */
    void cancel() {
        cancelled.countDown();
    }

    /** Returns whether it is still running. */
    boolean running() {
        return state == State.RUNNING;
    }

    /** Returns its progress now. */
    RedeliveryJobInfo info() {
        return new RedeliveryJobInfo(description, state.name(), ids.size(), redelivered, failed, rate,
                Date.from(created), ended == null ? null : Date.from(ended), error);
    }
}
