package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.inbound.InboundHarness;

/**
 * monitoring.md: the database is read at most every {@value QueueReadings#MAX_AGE_MILLIS} ms whatever the scrape rate,
 * but for the queue's depth, counted at each reading. On a paused activation (the messages stay queued), H2.
 */
class QueueReadingsTest {

    @Test
    void theReadingsServeFiveSecondsButTheDepthIsCountedEachTime() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, h.spec());
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            ActivationMXBeanTest.pauseFully(mx);
            long readAt = System.nanoTime(); // before the reading: the reading's own time is later
            assertEquals(0, mx.getPendingConversationGroupCount());

            h.send("queued while paused");

            long askedAt = System.nanoTime();
            long cached = mx.getPendingConversationGroupCount();
            assertEquals(1, mx.getQueueDepth(), "the depth is counted at each reading");
            assertTrue(askedAt - readAt < TimeUnit.MILLISECONDS.toNanos(QueueReadings.MAX_AGE_MILLIS),
                    "asked again within the reading's age");
            assertEquals(0, cached, "the reading taken before the send still serves");
            await("a new reading").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                    .until(() -> mx.getPendingConversationGroupCount() == 1);
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - readAt);
            assertTrue(waited >= QueueReadings.MAX_AGE_MILLIS, "read anew after " + waited + " ms");
        }
    }
}
