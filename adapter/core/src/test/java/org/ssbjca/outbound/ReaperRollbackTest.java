package org.ssbjca.outbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.InboundHarness;

/**
 * A delivery's transaction rolled back by the transaction manager's reaper while the bean still runs (its timeout
 * passed, Narayana's {@code ARJUNA012117}): what the bean does after it through the connection factory, a verb or a
 * statement on {@code jdbcConnection()}, fails and is not written. The drivers' XA rollback puts the reader's
 * connection back in auto-commit, so such work ran outside any transaction and committed at once, while the message,
 * rolled back, was delivered again: the bean's work done twice. A WildFly datasource refuses a statement in a
 * transaction that is no longer active the same way.
 */
class ReaperRollbackTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"h2", "postgresql"})
    void workAfterTheReaperRolledTheDeliveryBackFailsAndIsNotWritten(String backend) throws Exception {
        try (InboundHarness h = backend.equals("h2") ? new InboundHarness()
                : new InboundHarness(PostgresServer.get().newDatabase("reaper_rollback"), true)) {
            h.execute("CREATE TABLE app_row (id INT PRIMARY KEY)");
            List<Throwable> refusals = new CopyOnWriteArrayList<>();
            AtomicInteger calls = new AtomicInteger();
            BrokerMessageListener bean = m -> {
                if (calls.incrementAndGet() > 1) {
                    return; // delivered again: nothing more
                }
                h.withBrokerConnection(broker -> {
                    Connection jdbc = broker.jdbcConnection(); // taken in the transaction, used after its end
                    FakeEndpointFactory.reaperRollback();
                    try (Statement s = jdbc.createStatement()) {
                        s.executeUpdate("INSERT INTO app_row VALUES (1)");
                        refusals.add(new AssertionError("the INSERT ran"));
                    } catch (java.sql.SQLException e) {
                        refusals.add(e);
                    }
                    try {
                        broker.send(Conversation.ofHandle(m.conversationHandle()), InboundHarness.REQUEST,
                                "reply".getBytes(StandardCharsets.UTF_8));
                        refusals.add(new AssertionError("the SEND ran"));
                    } catch (RuntimeException e) {
                        refusals.add(e);
                    }
                });
            };
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, h.spec());

            h.send("ping");

            await().atMost(Duration.ofSeconds(30)).until(() -> f.commits.get() >= 1 && calls.get() == 2);
            assertEquals(1, f.rollbacks.get(), "the reaper's");
            assertEquals(List.of(), DeliveryJdbcConnectionTest.ids(h), "no row written after the rollback");
            assertEquals(0, h.depth(InboundHarness.INITIATOR_QUEUE), "no reply sent after the rollback");
            assertEquals(2, refusals.size(), String.valueOf(refusals));
            for (Throwable refusal : refusals) {
                assertTrue(String.valueOf(refusal.getMessage()).contains("no longer active"), String.valueOf(refusal));
            }
        }
    }
}
