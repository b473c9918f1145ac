package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.LogRecords;

/**
 * A queue declared after the bean started: its readers retry until it exists, and the log says so once per
 * activation (per outage), not once per reader and retry; the retries are logged at debug.
 */
class MissingQueueLoggingTest {

    @Test
    void aMissingQueueIsReportedOncePerActivationNotPerReaderAndRetry() throws Exception {
        try (InboundHarness h = new InboundHarness(); LogRecords log = LogRecords.of(QueueReader.class)) {
            List<String> got = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> got.add(m.bodyAsText());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setQueue("LateQueue");
            spec.setMaxReaders("3");
            spec.setReconnectInitialMillis("10");
            spec.setReconnectMaxMillis("40");
            h.activate(BrokerMessageListener.class, bean, true, spec);

            await().atMost(Duration.ofSeconds(20)).until(() -> log.messages(Level.FINE, "SSBJCA0029").size() >= 11);
            List<String> warnings = log.messages(Level.WARNING, "SSBJCA0025");
            assertEquals(1, warnings.size(), "one warning for the activation, the retries at debug: " + warnings);
            assertTrue(warnings.get(0).contains("LateQueue"), warnings.get(0));

            h.admin(a -> {
                a.createQueue("LateQueue");
                a.createService("LateService", "LateQueue", InboundHarness.CONTRACT);
            });
            h.tx(s -> {
                org.ssbjca.api.Conversation c = s.beginDialog(InboundHarness.INITIATOR, "LateService",
                        InboundHarness.CONTRACT, org.ssbjca.api.DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, "late".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                return null;
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> got.size() == 1);
            assertEquals(1, log.messages(Level.WARNING, "SSBJCA0025").size());
        }
    }
}
