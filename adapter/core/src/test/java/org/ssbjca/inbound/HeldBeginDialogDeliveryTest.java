package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.conformance.PostgresServer;

/**
 * A bean that begins dialogs through the connection factory while it handles a delivery (on PostgreSQL, the
 * reader's session holds a BEGIN DIALOG back until its first SEND): a dialog it begins and sends nothing on is
 * written when the delivery's transaction ends, XA (the reader's branch's end) or local (a bean without a
 * transaction).
 */
class HeldBeginDialogDeliveryTest {

    @ParameterizedTest(name = "transacted {0}")
    @ValueSource(booleans = {true, false})
    void aDialogABeanBeginsAndSendsNothingOnIsWrittenWithTheDelivery(boolean transacted) throws Exception {
        String database = "held_begin_delivery_" + transacted;
        try (InboundHarness h = new InboundHarness(PostgresServer.get().newDatabase(database), true)) {
            List<UUID> begun = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> h.withBrokerConnection(broker -> {
                // in the first delivery the first is written when called (the broker finds the declared objects)
                // and the second held; in the second both are held
                for (int i = 0; i < 2; i++) {
                    begun.add(broker.beginDialog(InboundHarness.TARGET, InboundHarness.INITIATOR,
                            InboundHarness.CONTRACT).handle());
                }
            });
            h.activate(BrokerMessageListener.class, bean, transacted, h.spec());
            EndpointActivation a = h.ra.activations().get(0);

            h.send("ping", "pong");

            await().atMost(Duration.ofSeconds(20)).until(() -> a.metrics().committed() == 2);
            assertEquals(0, a.metrics().rolledBack());
            assertEquals(4, begun.size());
            long written = endpoints(h, begun);
            assertEquals(4, written, "every dialog the bean began");
        }
    }

    /**
     * The held BEGIN DIALOG fails when the delivery's transaction ends (its target service dropped meanwhile): the
     * delivery rolls back, the dialog written at once with it, and the message is delivered again.
     */
    @ParameterizedTest(name = "transacted {0}")
    @ValueSource(booleans = {true, false})
    void aHeldBeginDialogThatFailsAtTheEndRollsTheDeliveryBack(boolean transacted) throws Exception {
        String database = "held_begin_failing_" + transacted;
        org.ssbjca.backend.DatabaseConfig config = PostgresServer.get().newDatabase(database);
        try (InboundHarness h = new InboundHarness(config, true)) {
            List<UUID> begun = new CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
            BrokerMessageListener bean = m -> {
                if (calls.incrementAndGet() > 1) {
                    return; // delivered again: nothing more to begin
                }
                h.withBrokerConnection(broker -> {
                    for (int i = 0; i < 2; i++) { // the first written when called, the second held
                        begun.add(broker.beginDialog(InboundHarness.TARGET, InboundHarness.INITIATOR,
                                InboundHarness.CONTRACT).handle());
                    }
                });
                try (java.sql.Connection other = java.sql.DriverManager.getConnection(config.url(),
                        config.user(), config.password()); java.sql.Statement st = other.createStatement()) {
                    st.execute("DELETE FROM ssb.service WHERE service_name = '" + InboundHarness.INITIATOR + "'");
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            };
            h.activate(BrokerMessageListener.class, bean, transacted, h.spec());
            EndpointActivation a = h.ra.activations().get(0);

            h.send("ping");

            await().atMost(Duration.ofSeconds(20)).until(() -> a.metrics().committed() == 1);
            assertEquals(1, a.metrics().rolledBack(), "the first delivery, whose held BEGIN DIALOG failed");
            assertEquals(2, calls.get());
            assertEquals(2, begun.size());
            long written = endpoints(h, begun);
            assertEquals(0, written, "neither dialog of the rolled-back delivery");
        }
    }

    /** @return how many of the handles have an endpoint, committed */
    private static long endpoints(InboundHarness h, List<UUID> handles) {
        return h.tx(s -> {
            try (java.sql.PreparedStatement ps = s.connection().prepareStatement(
                    "SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE conversation_handle = ANY (?)")) {
                ps.setArray(1, s.connection().createArrayOf("uuid", handles.toArray()));
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
