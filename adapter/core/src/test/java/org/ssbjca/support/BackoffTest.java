package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Capped exponential backoff with jitter. */
class BackoffTest {

    @Test
    void withoutJitterTheDelaysDoubleUpToTheCap() {
        Backoff b = new Backoff(100, 1000, 0);
        long[] delays = new long[8];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = b.nextDelayMillis();
        }
        assertEquals("[100, 200, 400, 800, 1000, 1000, 1000, 1000]", java.util.Arrays.toString(delays));
        assertEquals(8, b.failures());
    }

    @Test
    void jitterOnlyShortensEachDelayWithinItsBound() {
        double jitter = 0.5;
        Set<Long> capped = new HashSet<>();
        for (int run = 0; run < 200; run++) {
            Backoff b = new Backoff(100, 1000, jitter);
            for (int n = 0; n < 8; n++) {
                long base = Math.min(1000, 100L << n);
                long d = b.nextDelayMillis();
                assertTrue(d <= base && d >= Math.round(base * (1 - jitter)),
                        "failure " + (n + 1) + ": " + d + " ms outside [" + base * (1 - jitter) + ", " + base + "]");
                if (n == 7) {
                    capped.add(d);
                }
            }
        }
        assertTrue(capped.size() > 50, "capped delays are spread by the jitter, not all equal: " + capped.size()
                + " distinct values in 200 runs");
    }

    @Test
    void aSuccessStartsOverFromTheFirstDelay() {
        Backoff b = new Backoff(50, 400, 0);
        b.nextDelayMillis();
        b.nextDelayMillis();
        b.nextDelayMillis();
        b.reset();
        assertEquals(0, b.failures());
        assertEquals(50, b.nextDelayMillis());
    }

    @Test
    void theCapHoldsAfterManyFailures() {
        Backoff b = new Backoff(1, 30_000, 0);
        long last = 0;
        for (int i = 0; i < 200; i++) {
            last = b.nextDelayMillis();
        }
        assertEquals(30_000, last, "no overflow after many doublings");
    }

    @Test
    void fullJitterNeverWaitsLessThanOneMillisecond() {
        Backoff b = new Backoff(1, 2, 1.0);
        for (int i = 0; i < 1000; i++) {
            assertTrue(b.nextDelayMillis() >= 1);
        }
    }

    @Test
    void invalidSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(0, 10, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(100, 50, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(100, 500, -0.1));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(100, 500, 1.1));
    }
}
