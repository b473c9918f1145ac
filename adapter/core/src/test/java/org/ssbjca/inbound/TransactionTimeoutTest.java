package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.LogRecords;

/**
 * {@code transactionTimeout} caps a delivery branch's timeout through {@code XAResource.setTransactionTimeout}, which
 * only some XA drivers honour (mssql-jdbc does; pgjdbc and H2 ignore it and say so by returning false). Where the
 * driver ignores it, the activation says so once at WARN ({@code SSBJCA0013}) instead of leaving the operator to
 * believe a long delivery's branch, and its conversation group's lock, is bounded.
 */
class TransactionTimeoutTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aQueueActivationSaysOnceThatItsDriverIgnoresTheTransactionTimeout(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
             LogRecords logs = LogRecords.of(QueueReader.class)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("3");
            spec.setTransactionTimeout("30");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> got.add(m.bodyAsText()), true,
                    spec);
            h.send("delivered all the same");
            await().until(() -> got.size() == 1);

            List<String> warnings = logs.messages(Level.WARNING, "SSBJCA0013");
            assertEquals(1, warnings.size(), "once for the activation's 3 readers: " + warnings);
            assertTrue(warnings.get(0).contains("transactionTimeout=30"), warnings.get(0));
        }
    }

    /**
     * The advice of docs/reference/activation-properties.md for PostgreSQL: {@code idle_in_transaction_session_timeout}
     * for the adapter's user (here the test's database) ends the session of a reader whose bean outlives it; the
     * delivery rolls back, the reader reconnects and the message is delivered again.
     */
    @Test
    void onPostgreSqlIdleInTransactionSessionTimeoutBoundsADelivery() throws Exception {
        try (InboundHarness h = InboundBackends.harness("PostgreSQL")) {
            try (Connection c = h.db.source().open(); Statement s = c.createStatement()) {
                s.execute("ALTER DATABASE " + c.getCatalog() + " SET idle_in_transaction_session_timeout = '1s'");
                c.commit();
            }
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> {
                attempts.add(m.deliveryAttempt());
                if (attempts.size() == 1) {
                    sleep(3_000); // the bean outlives the session's idle-in-transaction limit
                }
            }, true, spec);
            h.send("slow the first time");
            await().until(() -> attempts.size() == 2 && h.depth(InboundHarness.TARGET_QUEUE) == 0);

            assertEquals(2, attempts.size(), "delivered again after its session was ended: " + attempts);
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void withoutATransactionTimeoutNothingIsSaid(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
             LogRecords logs = LogRecords.of(QueueReader.class)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> got.add(m.bodyAsText()), true,
                    spec);
            h.send("one");
            await().until(() -> got.size() == 1);

            assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0013"));
        }
    }
}
