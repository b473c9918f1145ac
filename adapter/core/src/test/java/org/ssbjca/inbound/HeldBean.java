package org.ssbjca.inbound;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** A bean whose deliveries wait until the test releases them, counting how many run at once. */
public final class HeldBean implements BrokerMessageListener {

    /** Deliveries in the bean now. */
    public final AtomicInteger concurrent = new AtomicInteger();
    /** The most deliveries that were in the bean at once. */
    public final AtomicInteger peak = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);

    @Override
    public void onMessage(BrokerMessage message) {
        peak.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
        try {
            awaitQuietly(release);
        } finally {
            concurrent.decrementAndGet();
        }
    }

    /** Lets every held delivery, and every later one, finish. */
    public void release() {
        release.countDown();
    }

    /**
     * Waits for a latch a test counts down, as a bean does.
     *
     * @param latch the latch
     * @throws IllegalStateException if it is not counted down within 30 s
     */
    public static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the bean");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
