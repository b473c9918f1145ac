package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;

/**
 * A reader's second connection, for its bookkeeping (failed deliveries, redelivery holds), is used only when a
 * delivery fails, so it may sit idle for days; when the server ended it meanwhile (PostgreSQL's
 * {@code idle_session_timeout}, a DBA, a NAT), the next failure is still counted, on a new one, and the reader goes
 * on without a reconnect.
 */
class IdleBookkeepingTest {

    @Test
    void aFailureAfterTheBookkeepingConnectionWasEndedIsStillCounted() throws Exception {
        try (InboundHarness h = InboundBackends.harness("PostgreSQL")) {
            try (Connection c = h.db.source().open(); Statement s = c.createStatement()) {
                s.execute("ALTER DATABASE " + c.getCatalog() + " SET idle_session_timeout = '1s'");
                c.commit();
            }
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                attempts.add(m.deliveryAttempt());
                throw new IllegalStateException("poison");
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setMaxDeliveryAttempts("2");
            spec.setRedeliveryDelay("3000"); // the bookkeeping connection idles 3 s between the failures
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("poison");

            Awaitility.await("dead-lettered after its two failures").atMost(Duration.ofSeconds(30))
                    .until(() -> a.metrics().deadLettered() == 1);
            assertEquals(List.of(1, 2), attempts);
            assertEquals(0, a.metrics().reconnects(), "no reader failure");
        }
    }
}
