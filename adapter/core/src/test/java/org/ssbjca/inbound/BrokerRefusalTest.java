package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.backend.BrokerState;
import org.ssbjca.brokers.RestoredDatabaseDouble;

/**
 * docs/operations/broker-doctor.md, "At start": an activation on a database whose broker is disabled (the state after
 * a RESTORE) or whose broker id changed while the adapter ran is refused when it is activated, with the statement to
 * run and what it costs; SQL Server's sys.databases played by {@link RestoredDatabaseDouble} over H2.
 */
class BrokerRefusalTest {

    private static final UUID FIRST = UUID.fromString("5ad4e4a3-0c59-4a0f-9a8c-7f2b6d9c1e01");
    private static final UUID OTHER = UUID.fromString("8e7f6a5b-1c2d-4e3f-8a9b-0c1d2e3f4a02");

    @Test
    void aRestoredDatabaseWhoseBrokerIsDisabledIsRefusedNamingWhatToRun() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            RestoredDatabaseDouble restored = RestoredDatabaseDouble.install(h.ra.registry(), h.ra.defaultDatabase(),
                    new BrokerState("Orders", false, FIRST));
            ResourceException e = assertThrows(ResourceException.class, () -> h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> { }, true, h.spec()));
            assertTrue(e.getMessage().contains("Service Broker is disabled in database [Orders]"), e.getMessage());
            assertTrue(e.getMessage().contains("SET ENABLE_BROKER WITH ROLLBACK IMMEDIATE"), e.getMessage());
            assertTrue(e.getMessage().contains("SET NEW_BROKER"), e.getMessage());
            assertEquals(0, h.ra.activations().size(), "not activated");

            restored.state.set(new BrokerState("Orders", true, FIRST)); // ALTER DATABASE ... SET ENABLE_BROKER
            List<String> got = new CopyOnWriteArrayList<>();
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> got.add(m.bodyAsText()), true,
                    h.spec());
            h.send("after ENABLE_BROKER");
            await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 1);
        }
    }

    @Test
    void aBrokerWhoseIdChangedWhileTheAdapterRanIsRefused() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            RestoredDatabaseDouble restored = RestoredDatabaseDouble.install(h.ra.registry(), h.ra.defaultDatabase(),
                    new BrokerState("Orders", true, FIRST));
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, h.spec());
            restored.state.set(new BrokerState("Orders", true, OTHER)); // ALTER DATABASE ... SET NEW_BROKER
            ServiceBrokerActivationSpec second = h.spec();
            ResourceException e = assertThrows(ResourceException.class, () -> h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> { }, true, second));
            assertTrue(e.getMessage().contains("changed from " + FIRST + " to " + OTHER), e.getMessage());
            assertTrue(e.getMessage().contains("ALTER ROUTE"), e.getMessage());
        }
    }
}
