package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.LogRecords;

/**
 * BEGIN DIALOG with its first SEND in one call remembers what its checks found ({@link CatalogCache}) and runs the
 * statement without them while the declared objects are unchanged: every change to them, made in any transaction on
 * any of their six tables, is seen by the next call as if nothing had been remembered.
 */
class CatalogCacheTest {

    private static final byte[] BODY = "work".getBytes(StandardCharsets.UTF_8);

    /** A change to each table of declared objects; then the same call again, remembered anew. */
    @Test
    void aChangeToAnyDeclaredObjectMakesTheNextCallCheckEverythingAgain() throws Exception {
        try (Fixture f = Fixture.declared("catalog_cache_any_change")) {
            f.warmUp();
            assertEquals(2, f.roundTripsOfACall(), "the statement with what was found (with the BEGIN), the COMMIT");
            for (String change : List.of("UPDATE ssb.message_type SET validation = validation",
                    "UPDATE ssb.contract SET contract_name = contract_name",
                    "UPDATE ssb.contract_message_type SET sent_by = sent_by",
                    "UPDATE ssb.service_queue SET is_receive_enabled = is_receive_enabled",
                    "UPDATE ssb.service SET queue_name = queue_name",
                    "UPDATE ssb.service_contract SET contract_name = contract_name")) {
                f.admin(change);
                assertEquals(4, f.roundTripsOfACall(), "after '" + change + "': the statement that made nothing,"
                        + " the version, the statement with its checks, the COMMIT");
                assertEquals(2, f.roundTripsOfACall(), "after '" + change + "': remembered again");
            }
        }
    }

    /** What each check refuses after it passed and was remembered, as a call that never remembered anything would. */
    @Test
    void whatAChangeForbidsIsRefusedAfterTheCallWasRemembered() throws Exception {
        try (Fixture f = Fixture.declared("catalog_cache_refusals")) {
            f.warmUp();
            long queued = f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QT'");

            f.admin("UPDATE ssb.service_queue SET is_receive_enabled = FALSE WHERE queue_name = 'QT'");
            f.call();
            assertEquals(queued, f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QT'"),
                    "nothing on the disabled queue");
            assertEquals(1, f.count("SELECT count(*) FROM ssb.transmission_queue"), "the message waits for it");
            f.admin("UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = 'QT'");
            f.warmUp();

            f.admin("UPDATE ssb.service SET queue_name = 'QI' WHERE service_name = 'T'");
            long onQi = f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'");
            f.call();
            assertEquals(onQi + 1, f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'"),
                    "the target service's new queue");
            f.admin("UPDATE ssb.service SET queue_name = 'QT' WHERE service_name = 'T'");
            f.warmUp();

            for (String[] change : new String[][] {
                {"DELETE FROM ssb.service_contract WHERE service_name = 'T'",
                    "INSERT INTO ssb.service_contract (service_name, contract_name) VALUES ('T', 'C')"},
                {"UPDATE ssb.message_type SET validation = 'EMPTY' WHERE message_type_name = 'M'",
                    "UPDATE ssb.message_type SET validation = 'NONE' WHERE message_type_name = 'M'"},
                {"UPDATE ssb.contract_message_type SET sent_by = 'TARGET' WHERE contract_name = 'C'",
                    "UPDATE ssb.contract_message_type SET sent_by = 'ANY' WHERE contract_name = 'C'"},
                {"DELETE FROM ssb.service WHERE service_name = 'I'", "INSERT INTO ssb.service (service_name, queue_name)"
                    + " VALUES ('I', 'QI')"}}) {
                long endpoints = f.count("SELECT count(*) FROM ssb.conversation_endpoint");
                f.admin(change[0]);
                assertThrows(BrokerException.class, f::call, change[0]);
                f.c.rollback();
                f.s.afterCompletion(false);
                assertEquals(endpoints, f.count("SELECT count(*) FROM ssb.conversation_endpoint"), change[0]);
                f.admin(change[1]);
                f.warmUp();
            }
        }
    }

    /**
     * A schema the adapter may not change ({@code createSchema} false) without the triggers: nothing is remembered,
     * SSBJCA0009 says what to run, and changes are seen; with {@code createSchema} true the triggers are installed.
     */
    @Test
    void withoutTheTriggersNothingIsRemembered() throws Exception {
        DatabaseConfig database = PostgresServer.get().newDatabase("catalog_cache_no_triggers");
        try (Fixture f = new Fixture(database, true)) {
            f.declare();
            assertNotNull(f.broker.catalogCache(), "installed with the schema");
            f.admin("DROP TRIGGER catalog_changed ON ssb.service");
        }
        try (LogRecords log = LogRecords.of(PortableBroker.class);
                Fixture f = new Fixture(database, false)) {
            assertNull(f.broker.catalogCache(), "one table's trigger missing: nothing remembered");
            assertEquals(1, log.messages(Level.INFO, "SSBJCA0009").size(), "says what to run");
            f.warmUp();
            assertEquals(2, f.roundTripsOfACall(), "the statement with its checks (with the BEGIN), the COMMIT");
            f.admin("UPDATE ssb.service SET queue_name = 'QI' WHERE service_name = 'T'");
            long onQi = f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'");
            f.call();
            assertEquals(onQi + 1, f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'"));
        }
        try (Fixture f = new Fixture(database, true)) {
            assertNotNull(f.broker.catalogCache(), "createSchema true: the triggers installed again");
            assertEquals(PortableSql.CATALOG_TABLES, f.count(new PortableSql(Dialect.POSTGRESQL).catalogTriggers));
        }
    }

    /** A PostgreSQL database with the declarations, and a session on a connection whose round trips are counted. */
    private static final class Fixture implements AutoCloseable {

        final PortableBroker broker;
        final Connection c;
        final BrokerSession s;
        private final DatabaseConfig config;

        /** A broker on the database, its schema prepared (installed only when {@code create}). */
        Fixture(DatabaseConfig database, boolean create) throws Exception {
            config = new DatabaseConfig(database.url() + (database.url().contains("?") ? "&" : "?")
                    + "socketFactory=" + CountingSocketFactory.class.getName(), database.user(), database.password());
            ConnectionSource source = new ConnectionSource(config);
            broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), PortableOptions.defaults());
            c = source.open();
            broker.prepareSchema(c, create);
            s = broker.session(c);
        }

        /** A new database with the schema and the declarations. */
        static Fixture declared(String database) throws Exception {
            Fixture f = new Fixture(PostgresServer.get().newDatabase(database), true);
            f.declare();
            return f;
        }

        void declare() throws Exception {
            IdleGroupsReceiveTest.declare(broker, c);
        }

        void call() throws Exception {
            s.beginDialogAndSend("I", "T", "C", DialogOptions.defaults(), "M", BODY);
            c.commit();
            s.afterCompletion(true);
        }

        /** More calls than pgjdbc's prepare threshold (5): the statements are prepared on the server. */
        void warmUp() throws Exception {
            for (int i = 0; i < 6; i++) {
                call();
            }
        }

        long roundTripsOfACall() throws Exception {
            long before = CountingSocketFactory.roundTrips();
            call();
            return CountingSocketFactory.roundTrips() - before;
        }

        /** Runs statements in a transaction of their own, on another connection (an operator's). */
        void admin(String statements) throws Exception {
            try (Connection other = new ConnectionSource(config).open();
                    java.sql.Statement st = other.createStatement()) {
                st.execute(statements);
                other.commit();
            }
        }

        long count(String query) throws Exception {
            long n = Jdbc.count(c, query);
            c.commit();
            return n;
        }

        @Override
        public void close() throws Exception {
            try {
                c.close();
            } finally {
                broker.close();
            }
        }
    }
}
