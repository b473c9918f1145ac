package org.ssbjca.inbound;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;
import org.ssbjca.support.Backoff;

/**
 * An activation's circuit breaker: after {@code threshold} failed deliveries in a row, all within {@code windowMillis}
 * and of more than one message (one poison message failing alone never opens it), it opens and the readers park before
 * their next RECEIVE or taking, so no message is charged while whatever they share (a database, a service the bean
 * calls) is down. After a delay it lets one reader through to probe with one delivery: a success closes it and every
 * reader goes on; a failure opens it again for a longer delay ({@link Backoff}: doubled each time up to a cap, with
 * jitter). Any success closes it, and ends a run of failures. A reader retrying the message it just failed counts
 * again: with fewer readers than the threshold and no redelivery delay, the readers take the same few messages again,
 * and counting only different messages would let those reach {@code maxDeliveryAttempts} before the breaker opened.
 *
 * <p>Thread safe: readers call {@link #awaitTurn} before each turn, and report each delivery's outcome ({@link
 * #succeeded}, {@link #failed}) and the end of each turn ({@link #turnEnded}) on their own thread. The {@link
 * Listener} is called with no lock held, on the reader's thread that changed the state.
 */
public final class CircuitBreaker {

    /** What the breaker lets through. */
    public enum State {
        /** Every reader delivers. */
        CLOSED,
        /** The readers park until the probe is due. */
        OPEN,
        /** One reader probes with one delivery; the others park. */
        PROBING
    }

    /** Told when the breaker opens or closes. */
    interface Listener {
        /**
         * Told when the breaker opens.
         *
         * @param failures the failures in a row that opened it (the threshold), or 1 for a failed probe
         * @param probe whether a probe failed (else a run of failures opened it)
         * @param probeInMillis how long until the next probe
         * @param lastError the last failure
         */
        void opened(int failures, boolean probe, long probeInMillis, String lastError);

        /**
         * Told when the breaker closes.
         *
         * @param openMillis how long it was open
         */
        void closed(long openMillis);
    }

    /** A breaker that never opens. */
    static final CircuitBreaker OFF = new CircuitBreaker(0, 0, null, null);

    private final int threshold;
    private final long windowNanos;
    private final Backoff backoff;
    private final Listener listener;
    private final Object lock = new Object();
    /** The run of failures: the message keys and when each failed, oldest first. */
    private final Deque<Failure> run = new ArrayDeque<>();
    private State state = State.CLOSED;
    private Instant openedAt;
    private long openedNanos;
    private long probeAtNanos;
    private Instant probeAt;
    private Thread prober;
    private long trips;
    private int parked;

    private record Failure(Object key, long atNanos) {
    }

    /**
     * @param threshold the failures in a row that open it, 0 for a breaker that never opens
     * @param windowMillis the span the run must fall within
     * @param backoff the delays before each probe (a fresh one per open period)
     * @param listener told of each change, or null
     */
    CircuitBreaker(int threshold, long windowMillis, Backoff backoff, Listener listener) {
        this.threshold = threshold;
        this.windowNanos = windowMillis * 1_000_000L;
        this.backoff = backoff;
        this.listener = listener;
    }

    boolean enabled() {
        return threshold > 0;
    }

    /**
     * Parks the calling reader while the breaker is open, or while another reader probes.
     *
     * @param stopping whether the reader stops (then it returns at once)
     * @return false if the reader stops
     * @throws InterruptedException if interrupted while parked
     */
    public boolean awaitTurn(BooleanSupplier stopping) throws InterruptedException {
        if (!enabled()) {
            return !stopping.getAsBoolean();
        }
        synchronized (lock) {
            boolean counted = false;
            try {
                while (!stopping.getAsBoolean()) {
                    if (state == State.CLOSED) {
                        return true;
                    }
                    long now = System.nanoTime();
                    if (state == State.OPEN && now - probeAtNanos >= 0) {
                        state = State.PROBING;
                    }
                    if (state == State.PROBING && (prober == null || prober == Thread.currentThread())) {
                        prober = Thread.currentThread();
                        return true;
                    }
                    if (!counted) {
                        parked++;
                        counted = true;
                    }
                    long waitMillis = state == State.OPEN ? Math.max(1, (probeAtNanos - now) / 1_000_000) : 1000;
                    lock.wait(Math.min(waitMillis, 1000));
                }
                return false;
            } finally {
                if (counted) {
                    parked--;
                }
            }
        }
    }

    /** A delivery committed: the run ends, and an open breaker closes. */
    public void succeeded() {
        if (!enabled()) {
            return;
        }
        long openMillis;
        synchronized (lock) {
            run.clear();
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            prober = null;
            backoff.reset();
            openMillis = (System.nanoTime() - openedNanos) / 1_000_000;
            lock.notifyAll();
        }
        if (listener != null) {
            listener.closed(openMillis);
        }
    }

    /**
     * A delivery failed.
     *
     * @param key the message (or row) it is charged to: a run of one message's failures alone never opens it
     * @param error what failed
     */
    public void failed(Object key, String error) {
        if (!enabled()) {
            return;
        }
        int failures;
        boolean probe;
        long delay;
        synchronized (lock) {
            long now = System.nanoTime();
            if (state == State.PROBING && prober == Thread.currentThread()) {
                failures = 1;
                probe = true;
            } else if (state != State.CLOSED) {
                return; // a delivery that was in flight as it opened
            } else {
                while (!run.isEmpty() && now - run.peekFirst().atNanos() > windowNanos) {
                    run.removeFirst();
                }
                run.addLast(new Failure(key, now));
                if (run.size() < threshold || (threshold > 1 && run.stream().allMatch(f -> f.key().equals(key)))) {
                    return;
                }
                failures = run.size();
                probe = false;
                openedNanos = now;
                openedAt = Instant.now();
                trips++;
            }
            run.clear();
            prober = null;
            delay = backoff.nextDelayMillis();
            state = State.OPEN;
            probeAtNanos = now + delay * 1_000_000L;
            probeAt = Instant.now().plusMillis(delay);
        }
        if (listener != null) {
            listener.opened(failures, probe, delay, error);
        }
    }

    /** The calling reader's turn ended: if it was probing and delivered nothing, another reader may probe. */
    public void turnEnded() {
        if (!enabled()) {
            return;
        }
        synchronized (lock) {
            if (prober == Thread.currentThread()) {
                prober = null;
                lock.notifyAll();
            }
        }
    }

    /** Wakes parked readers to look at whether they stop. */
    void wakeAll() {
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    public State state() {
        synchronized (lock) {
            return state;
        }
    }

    /** Returns when it last opened, or null if it never did. */
    public Instant openedAt() {
        synchronized (lock) {
            return openedAt;
        }
    }

    /** Returns when the next probe is due while open or probing, else null. */
    public Instant nextProbe() {
        synchronized (lock) {
            return state == State.CLOSED ? null : probeAt;
        }
    }

    /** Returns how many times it opened after a run of failures (failed probes not counted). */
    public long trips() {
        synchronized (lock) {
            return trips;
        }
    }

    /** Returns readers parked by it now. */
    public int parked() {
        synchronized (lock) {
            return parked;
        }
    }
}
