package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.brokers.AzureSqlDatabaseDouble;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.table.TableActivation;
import org.ssbjca.inbound.table.TableActivationSpec;
import org.ssbjca.inbound.table.TableActivationTest;

/**
 * A table activation whose bean has no container transaction ({@code NOT_SUPPORTED}): the reader's local transaction
 * takes the row, and the bean's own SQL on {@code ServiceBrokerConnection.jdbcConnection()} runs on the reader's
 * connection, in that transaction, committing with the row's completion or rolling back with it. It is the mode of
 * Azure SQL Database, which has no XA ({@link AzureSqlDatabaseDouble}): there a transacted table bean and a Service
 * Broker queue activation are refused when they are activated.
 */
class LocalTableDeliveryTest {

    static Stream<String> databases() {
        return Stream.of("H2", "PostgreSQL", "Azure SQL Database double");
    }

    /**
     * Five rows, the third of which fails after the bean's insert: the four others are done with their inserts
     * committed; each failed attempt's insert rolled back with the row, which stays undone (set aside after its two
     * attempts); no XA call is made.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theBeansSqlOnJdbcConnectionCommitsWithTheRowAndRollsBackWithIt(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind.startsWith("Azure") ? "H2"
                : kind), false)) {
            AzureSqlDatabaseDouble azure = kind.startsWith("Azure")
                    ? AzureSqlDatabaseDouble.install(h.ra.registry(), h.ra.defaultDatabase()) : null;
            TableActivationTest.createMessages(h, 5);
            boolean pg = h.db.source().config().url().startsWith("jdbc:postgresql:");
            h.execute("CREATE TABLE Messaging.Handled (MessageBody " + (pg ? "BYTEA" : "VARBINARY(1000)")
                    + " NOT NULL)", "ALTER TABLE Messaging.Message ADD Attempts INT DEFAULT 0 NOT NULL");
            AtomicInteger poisonCalls = new AtomicInteger();
            TableRowListener bean = row -> {
                insertHandled(h, row.payloadBytes());
                if ("m2".equals(row.payloadText())) {
                    poisonCalls.incrementAndGet();
                    throw new IllegalStateException("the third row fails after its insert");
                }
            };
            TableActivationSpec spec = TableActivationTest.messageSpec(h);
            spec.setRetryDelaySeconds("0");
            spec.setAttemptsColumn("Attempts");
            spec.setMaxAttempts("2"); // the failing row is set aside after two attempts, and the others taken
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, false,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            TableActivation activation = TableActivationTest.activation(h, factory);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> activation.deliveredRows() == 4
                        && activation.counts().setAside() == 1);
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
            assertEquals(List.of("m0", "m1", "m3", "m4"), handled(h), "the good rows' inserts, each once; none of"
                    + " the failing row's " + poisonCalls.get() + " inserts");
            assertEquals(4, TableActivationTest.count(h,
                    "SELECT COUNT(*) FROM Messaging.Message WHERE DequeueTime IS NOT NULL"));
            assertEquals(1, TableActivationTest.count(h,
                    "SELECT COUNT(*) FROM Messaging.Message WHERE DequeueTime IS NULL"), "the failing row not done");
            assertEquals(2, poisonCalls.get());
            assertEquals(2, activation.failedDeliveries());
            assertEquals(0, factory.pairingErrors.get());
            if (azure != null) {
                assertEquals(0, azure.xaCalls.get(), "no XA call");
            }
        }
    }

    /** A container-managed (REQUIRED) table bean would need XA: refused when it is activated, saying what to do. */
    @Test
    void aTransactedTableBeanIsRefusedOnAzureSqlDatabase() throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database("H2"), false)) {
            AzureSqlDatabaseDouble azure = AzureSqlDatabaseDouble.install(h.ra.registry(), h.ra.defaultDatabase());
            TableActivationTest.createMessages(h, 1);
            TableActivationSpec spec = TableActivationTest.messageSpec(h);
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    (TableRowListener) row -> { }, true, h.context.transactions());
            ResourceException e = assertThrows(ResourceException.class, () -> h.ra.endpointActivation(factory, spec));
            assertContains(e, "Messaging.Message cannot run on Azure SQL Database");
            assertContains(e, "no XA");
            assertContains(e, "@TransactionAttribute(NOT_SUPPORTED)");
            assertContains(e, "jdbcConnection()");
            assertEquals(0, azure.xaCalls.get());
            assertEquals(1, TableActivationTest.count(h, "SELECT COUNT(*) FROM Messaging.Message"
                    + " WHERE DequeueTime IS NULL"), "nothing taken");
        }
    }

    /**
     * The database does not answer when the transacted bean is activated: the activation starts, and its readers,
     * asking when they connect, fail with the refusal, taking nothing.
     */
    @Test
    void aTransactedTableBeanActivatedWhileTheDatabaseDoesNotAnswerFailsItsReaders() throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database("H2"), false)) {
            AzureSqlDatabaseDouble azure = AzureSqlDatabaseDouble.install(h.ra.registry(), h.ra.defaultDatabase());
            TableActivationTest.createMessages(h, 1);
            azure.unanswered.set(1);
            TableActivationSpec spec = TableActivationTest.messageSpec(h);
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    (TableRowListener) row -> { }, true, h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(20)).until(() -> activation.lastError() != null
                        && activation.lastError().contains("cannot run on Azure SQL Database"));
                assertEquals(0, activation.deliveredRows());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
            assertEquals(0, azure.xaCalls.get());
            assertEquals(1, TableActivationTest.count(h, "SELECT COUNT(*) FROM Messaging.Message"
                    + " WHERE DequeueTime IS NULL"), "nothing taken");
        }
    }

    /** The same for a queue activation: its readers fail with the refusal as they connect. */
    @Test
    void aQueueActivationStartedWhileTheDatabaseDoesNotAnswerFailsItsReaders() throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database("H2"), false)) {
            AzureSqlDatabaseDouble azure = AzureSqlDatabaseDouble.install(h.ra.registry(), h.ra.defaultDatabase());
            azure.unanswered.set(1);
            ServiceBrokerActivationSpec spec = h.spec();
            FakeEndpointFactory factory = new FakeEndpointFactory(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> { }, false, h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                EndpointActivation activation = h.ra.activations().get(0);
                await().atMost(Duration.ofSeconds(20)).until(() -> activation.metrics().lastError() != null
                        && activation.metrics().lastError().contains("it has no Service Broker"));
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /** Azure SQL Database has no Service Broker: a queue activation is refused when it is activated. */
    @Test
    void aServiceBrokerQueueActivationIsRefusedOnAzureSqlDatabase() throws Exception {
        for (boolean transacted : new boolean[] {true, false}) {
            try (InboundHarness h = new InboundHarness(TableActivationTest.database("H2"), false)) {
                AzureSqlDatabaseDouble.install(h.ra.registry(), h.ra.defaultDatabase());
                ServiceBrokerActivationSpec spec = h.spec();
                FakeEndpointFactory factory = new FakeEndpointFactory(BrokerMessageListener.class,
                        (BrokerMessageListener) m -> { }, transacted, h.context.transactions());
                ResourceException e = assertThrows(ResourceException.class,
                        () -> h.ra.endpointActivation(factory, spec));
                assertContains(e, "TargetQueue cannot run on Azure SQL Database: it has no Service Broker");
                assertTrue(h.ra.activations().isEmpty(), "no activation left running");
            }
        }
    }

    private static void assertContains(Exception e, String expected) {
        assertTrue(e.getMessage().contains(expected), "'" + expected + "' in: " + e.getMessage());
    }

    /** The bean's own SQL, through the connection factory's JDBC connection, as an application writes it. */
    private static void insertHandled(InboundHarness h, byte[] body) {
        h.withBrokerConnection(broker -> {
            try (PreparedStatement ps = broker.jdbcConnection().prepareStatement(
                    "INSERT INTO Messaging.Handled (MessageBody) VALUES (?)")) {
                ps.setBytes(1, body);
                ps.executeUpdate();
            }
        });
    }

    private static List<String> handled(InboundHarness h) throws SQLException {
        List<String> bodies = new ArrayList<>();
        try (Connection c = h.db.source().open(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT MessageBody FROM Messaging.Handled")) {
            while (rs.next()) {
                bodies.add(new String(rs.getBytes(1), StandardCharsets.UTF_8));
            }
            c.rollback();
        }
        bodies.sort(null);
        return bodies;
    }
}
