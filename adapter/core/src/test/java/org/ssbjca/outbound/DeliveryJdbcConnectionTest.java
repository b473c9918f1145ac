package org.ssbjca.outbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.InboundHarness;

/**
 * docs/guide/one-database.md: the JDBC connection a bean takes from {@code jdbcConnection()} in a delivery is the
 * delivery's connection, in the delivery's transaction, and only there. Used from another thread (an asynchronous
 * task the bean hands it to) or in another transaction (a {@code REQUIRES_NEW} method it is passed to) it would run its
 * statements on the factory's connection, in another transaction or in none, committing them whatever the delivery
 * does: it refuses instead, saying where it may be used.
 */
class DeliveryJdbcConnectionTest {

    @Test
    void theDeliverysJdbcConnectionRefusesWorkOnAnotherThreadOrInAnotherTransaction() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            h.execute("CREATE TABLE app_row (id INT PRIMARY KEY)");
            List<Throwable> outcomes = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> h.withBrokerConnection(broker -> {
                Connection jdbc = broker.jdbcConnection();
                try (Statement s = jdbc.createStatement()) {
                    s.executeUpdate("INSERT INTO app_row VALUES (1)"); // on the delivery's thread: allowed
                }
                Object delivery = h.context.transactions().getTransactionKey();
                // the delivery's transaction suspended
                h.context.transactions().begin("a REQUIRES_NEW method's transaction");
                try (Statement s = jdbc.createStatement()) {
                    s.executeUpdate("INSERT INTO app_row VALUES (3)");
                    outcomes.add(new AssertionError("the INSERT in another transaction ran"));
                } catch (java.sql.SQLException e) {
                    outcomes.add(e);
                } finally {
                    h.context.transactions().begin(delivery); // resumed
                }
                CompletableFuture.runAsync(() -> {
                    try (Statement s = jdbc.createStatement()) {
                        s.executeUpdate("INSERT INTO app_row VALUES (2)");
                    } catch (Exception e) {
                        throw new CompletionException(e);
                    }
                }).handle((ok, failure) -> outcomes.add(failure == null
                        ? new AssertionError("the other thread's INSERT ran") : failure.getCause())).join();
            });
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, h.spec());

            h.send("ping");

            await().atMost(Duration.ofSeconds(20)).until(() -> f.commits.get() == 1);
            assertEquals(2, outcomes.size(), String.valueOf(outcomes));
            for (Throwable refusal : outcomes) {
                assertInstanceOf(java.sql.SQLException.class, refusal, String.valueOf(refusal));
                assertTrue(refusal.getMessage().contains("only on the thread of the delivery, in the delivery's"
                        + " transaction"), refusal.getMessage());
            }
            assertEquals(List.of(1), ids(h), "the delivery's own INSERT committed with it, the other thread's none");
        }
    }

    /** @return the ids in {@code app_row}, as a connection of its own reads them */
    static List<Integer> ids(InboundHarness h) throws Exception {
        List<Integer> ids = new CopyOnWriteArrayList<>();
        try (Connection c = h.db.source().open(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM app_row ORDER BY id")) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
            c.rollback();
        }
        return ids;
    }
}
