package org.ssbjca.inbound;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Whether a queue may have failed deliveries recorded, so that a RECEIVE looks up attempts only when some may exist:
 * the database is asked at most every 5 s (by one reader at a time), and a failure a reader of this activation
 * records counts at once, even while another reader's look is under way.
 */
final class FailedDeliveryHint {

    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final AtomicLong recorded = new AtomicLong();
    private final AtomicLong checkedAt = new AtomicLong();
    private volatile boolean found = true;
    private volatile long recordedAtLook;

    /**
     * @param lookInDatabase asks the database whether failed deliveries are recorded for this queue
     * @return whether they may be
     */
    boolean mayHaveAttempts(BooleanSupplier lookInDatabase) {
        long now = System.nanoTime();
        long last = checkedAt.get();
        if ((last == 0 || now - last > RECHECK_NANOS) && checkedAt.compareAndSet(last, now)) {
            // one reader looks at a time; a failure another reader records meanwhile is not hidden by what it finds
            long recordedBefore = recorded.get();
            try {
                found = lookInDatabase.getAsBoolean();
            } catch (RuntimeException e) {
                checkedAt.set(last);
                throw e;
            }
            recordedAtLook = recordedBefore;
        }
        return found || recorded.get() != recordedAtLook;
    }

    /** A reader of this activation recorded a failed delivery. */
    void recorded() {
        recorded.incrementAndGet();
    }
}
