package org.ssbjca.it.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/** Waiting for a condition with a deadline, instead of sleeping a fixed time. */
public final class Await {

    private Await() {
    }

    /**
     * @param what the condition, for the failure message
     * @param timeout the deadline
     * @param condition polled every 50 ms
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what);
            }
            sleep(50);
        }
    }

    /**
     * Waits until a count reaches a target, failing if it stops moving for {@code stall} (or passes the target).
     *
     * @param what what is counted
     * @param target the count to reach
     * @param stall the longest the count may stay the same
     * @param count polled every 250 ms
     * @return the final count
     */
    public static long count(String what, long target, Duration stall, LongSupplier count) {
        long last = -1;
        long movedAt = System.nanoTime();
        while (true) {
            long now = count.getAsLong();
            if (now >= target) {
                return now;
            }
            if (now != last) {
                last = now;
                movedAt = System.nanoTime();
            } else if (System.nanoTime() - movedAt > stall.toNanos()) {
                throw new AssertionError(what + ": stuck at " + now + " of " + target + " for "
                        + stall.toSeconds() + " s");
            }
            sleep(250);
        }
    }

    /** @param millis how long to sleep */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
