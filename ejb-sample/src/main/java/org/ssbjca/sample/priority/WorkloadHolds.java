package org.ssbjca.sample.priority;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Keeps a request in work until its client lets it go. In seed 000 the first request is "already in work" while the
 * other 99 arrive because every workload takes 2 s; here the client holds its first request until it has committed
 * all the others, so that the outcome does not depend on the speed of the machine. Nothing else changes: the
 * service still works on one request at a time, and the adapter alone decides which conversation comes next.
 *
 * <p>In memory, in the server's JVM: the client and the service of the demo run in the same server.
 */
public final class WorkloadHolds {

    private static final Logger LOG = Logger.getLogger(WorkloadHolds.class.getName());
    /** The longest a request is held when its client never lets it go (it failed, for instance). */
    private static final Duration MAX_HOLD = Duration.ofSeconds(60);
    private static final Map<String, CountDownLatch> HOLDS = new ConcurrentHashMap<>();

    private WorkloadHolds() {
    }

    static void open(String hold) {
        HOLDS.put(hold, new CountDownLatch(1));
    }

    static void release(String hold) {
        CountDownLatch latch = HOLDS.remove(hold);
        if (latch != null) {
            latch.countDown();
        }
    }

    /** Waits until the hold is released (at most a minute); returns at once for an unknown or released hold. */
    static void await(String hold) {
        CountDownLatch latch = hold == null ? null : HOLDS.get(hold);
        if (latch == null) {
            return;
        }
        try {
            if (!latch.await(MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warning("hold " + hold + " was never released; working anyway");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
