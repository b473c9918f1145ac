package org.ssbjca.it.support;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * What the fault tests wait for besides plain conditions (those are Awaitility's {@code await(...).until(...)}).
 */
public final class Await {

    private Await() {
    }

    /**
     * Waits until a count reaches a target, failing as soon as it stops moving for {@code stall}: a long drain that
     * keeps progressing is never cut short by a fixed deadline, and one that is stuck fails early.
     *
     * @param what what is counted
     * @param target the count to reach
     * @param stall the longest the count may stay the same
     * @param count polled every 250 ms
     * @return the final count
     */
    public static long count(String what, long target, Duration stall, LongSupplier count) {
        long[] last = {-1};
        long[] movedAt = {System.nanoTime()};
        long[] now = {0};
        await(what).atMost(Duration.ofHours(1)).pollInterval(Duration.ofMillis(250)).until(() -> {
            now[0] = count.getAsLong();
            if (now[0] >= target) {
                return true;
            }
            if (now[0] != last[0]) {
                last[0] = now[0];
                movedAt[0] = System.nanoTime();
            } else if (System.nanoTime() - movedAt[0] > stall.toNanos()) {
                throw new AssertionError(what + ": stuck at " + now[0] + " of " + target + " for "
                        + stall.toSeconds() + " s");
            }
            return false;
        });
        return now[0];
    }

    /**
     * Lets time pass on purpose: the length of a fault the test makes (an outage), or the pace of calls. Never a
     * stand-in for a state: wait for the state itself.
     *
     * @param duration how long
     */
    public static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
