package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.LogRecords;

/**
 * BEGIN DIALOG and SEND remember what their checks of the declared objects found ({@link CatalogCache}) and run their
 * statements with those findings while the declared objects are unchanged: every change to them, made in any
 * transaction on any of their six tables, is seen by the next call as if nothing had been remembered.
 */
class CatalogCacheTest {

    private static final byte[] BODY = "work".getBytes(StandardCharsets.UTF_8);

    /** An application that makes names up does not grow the findings without bound: past the bound they start again. */
    @Test
    void theFindingsAreBounded() {
        CatalogCache cache = new CatalogCache();
        CatalogCache.Entry entry = new CatalogCache.Entry(1, new Object[0]);
        for (int i = 0; i < CatalogCache.MAX_ENTRIES; i++) {
            cache.put(new CatalogCache.Key(CatalogCache.Checks.SEND, List.of("T" + i)), entry);
        }
        assertNotNull(cache.get(new CatalogCache.Key(CatalogCache.Checks.SEND, List.of("T0"))), "within the bound");
        cache.put(new CatalogCache.Key(CatalogCache.Checks.SEND, List.of("one more")), entry);
        assertNull(cache.get(new CatalogCache.Key(CatalogCache.Checks.SEND, List.of("T0"))), "started again");
        assertNotNull(cache.get(new CatalogCache.Key(CatalogCache.Checks.SEND, List.of("one more"))));
    }

    /** The ways to send whose statements check the declared objects. */
    enum Way {
        /** beginDialogAndSend: one statement with checks (2 round trips with the commit). */
        ONE_CALL(2, 1),
        /** beginDialog, then send: two statements with checks (3 round trips with the commit). */
        TWO_CALLS(3, 2),
        /** send on a conversation whose target exists: the lock, one statement with checks, the commit. */
        LATER_SEND(3, 1);

        final int roundTrips;
        final int checked;

        Way(int roundTrips, int checked) {
            this.roundTrips = roundTrips;
            this.checked = checked;
        }
    }

    /** A change to each table of declared objects; then the same call again, remembered anew. */
    @Test
    void aChangeToAnyDeclaredObjectMakesTheNextCallCheckEverythingAgain() throws Exception {
        try (Fixture f = Fixture.declared("catalog_cache_any_change")) {
            for (Way way : Way.values()) {
                f.warmUp(way);
                assertEquals(way.roundTrips, f.roundTripsOfACall(way), way + ": with what was found");
                for (String change : List.of("UPDATE ssb.message_type SET validation = validation",
                        "UPDATE ssb.contract SET contract_name = contract_name",
                        "UPDATE ssb.contract_message_type SET sent_by = sent_by",
                        "UPDATE ssb.service_queue SET is_receive_enabled = is_receive_enabled",
                        "UPDATE ssb.service SET queue_name = queue_name",
                        "UPDATE ssb.service_contract SET contract_name = contract_name")) {
                    f.admin(change);
                    assertEquals(way.roundTrips + 2 * way.checked, f.roundTripsOfACall(way), way + " after '"
                            + change + "': each statement with what was found made nothing; the version, the"
                            + " statement with its checks");
                    assertEquals(way.roundTrips, f.roundTripsOfACall(way), way + " after '" + change
                            + "': remembered again");
                }
            }
        }
    }

    /** What a change forbids is refused after the call was remembered, as by a call that never remembered anything. */
    @Test
    void whatAChangeForbidsIsRefusedAfterTheCallWasRemembered() throws Exception {
        try (Fixture f = Fixture.declared("catalog_cache_refusals")) {
            for (Way way : Way.values()) {
                f.warmUp(way);
                long queued = f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QT'");
                long waiting = f.count("SELECT count(*) FROM ssb.transmission_queue");
                f.admin("UPDATE ssb.service_queue SET is_receive_enabled = FALSE WHERE queue_name = 'QT'");
                f.call(way);
                assertEquals(queued, f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QT'"),
                        way + ": nothing on the disabled queue");
                assertEquals(waiting + 1, f.count("SELECT count(*) FROM ssb.transmission_queue"),
                        way + ": the message waits for it");
                f.admin("UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = 'QT'");
                f.warmUp(way);

                f.admin("UPDATE ssb.service SET queue_name = 'QI' WHERE service_name = 'T'");
                long onQi = f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'");
                f.call(way);
                assertEquals(onQi + 1, f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'"),
                        way + ": the target service's new queue");
                f.admin("UPDATE ssb.service SET queue_name = 'QT' WHERE service_name = 'T'");
                f.warmUp(way);

                List<String[]> refusals = new java.util.ArrayList<>(List.of(
                        new String[] {"UPDATE ssb.message_type SET validation = 'EMPTY' WHERE message_type_name = 'M'",
                            "UPDATE ssb.message_type SET validation = 'NONE' WHERE message_type_name = 'M'"},
                        new String[] {"UPDATE ssb.contract_message_type SET sent_by = 'TARGET'"
                            + " WHERE contract_name = 'C'",
                            "UPDATE ssb.contract_message_type SET sent_by = 'ANY' WHERE contract_name = 'C'"}));
                if (way != Way.LATER_SEND) { // a later SEND is not asked whether the services still are what they were
                    refusals.add(new String[] {"DELETE FROM ssb.service_contract WHERE service_name = 'T'",
                        "INSERT INTO ssb.service_contract (service_name, contract_name) VALUES ('T', 'C')"});
                    refusals.add(new String[] {"DELETE FROM ssb.service WHERE service_name = 'I'",
                        "INSERT INTO ssb.service (service_name, queue_name) VALUES ('I', 'QI')"});
                }
                for (String[] change : refusals) {
                    long messages = f.count("SELECT count(*) FROM ssb.message");
                    f.admin(change[0]);
                    assertThrows(BrokerException.class, () -> f.call(way), way + ": " + change[0]);
                    f.c.rollback();
                    f.s.afterCompletion(false);
                    assertEquals(messages, f.count("SELECT count(*) FROM ssb.message"), way + ": " + change[0]);
                    f.admin(change[1]);
                    f.warmUp(way);
                }
            }
        }
    }

    /**
     * A call in a transaction that changed a declared object itself, and then rolled back, remembers what it saw with
     * a version that no committed change ever has (the triggers number versions from a sequence): a later change by
     * another transaction is not mistaken for it.
     */
    @Test
    void whatATransactionThatRolledBackSawIsNeverTakenForCurrent() throws Exception {
        try (Fixture f = Fixture.declared("catalog_cache_rollback")) {
            f.warmUp(Way.ONE_CALL);
            long onQi = f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'");
            try (java.sql.Statement st = f.c.createStatement()) {
                st.execute("UPDATE ssb.service SET queue_name = 'QI' WHERE service_name = 'T'");
            }
            f.s.beginDialogAndSend("I", "T", "C", DialogOptions.defaults(), "M", BODY);
            f.c.rollback();
            f.s.afterCompletion(false);
            f.admin("UPDATE ssb.service_queue SET is_receive_enabled = is_receive_enabled");
            long onQt = f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QT'");
            f.call(Way.ONE_CALL);
            assertEquals(onQt + 1, f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QT'"),
                    "T's queue is QT: the rolled-back change is not the current version");
            assertEquals(onQi, f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'"));
        }
    }

    /**
     * The version moves for a role allowed to change a declared object but given no rights on the version (the
     * trigger's function runs as its owner), and for a change applied in replica mode (logical replication's apply).
     */
    @Test
    void theVersionMovesForAnyWriterAndInReplicaMode() throws Exception {
        try (Fixture f = Fixture.declared("catalog_cache_writers")) {
            String version = "SELECT version FROM ssb.catalog_version";
            long before = f.count(version);
            f.admin("DROP ROLE IF EXISTS ssb_queue_operator; CREATE ROLE ssb_queue_operator;"
                    + " GRANT USAGE ON SCHEMA ssb TO ssb_queue_operator;"
                    + " GRANT SELECT, UPDATE ON ssb.service_queue TO ssb_queue_operator;"
                    + " SET ROLE ssb_queue_operator;"
                    + " UPDATE ssb.service_queue SET is_receive_enabled = is_receive_enabled; RESET ROLE");
            long afterOperator = f.count(version);
            assertTrue(afterOperator != before, "a new version after the operator's change");
            f.admin("SET session_replication_role = replica;"
                    + " UPDATE ssb.service_queue SET is_receive_enabled = is_receive_enabled");
            assertTrue(f.count(version) != afterOperator, "a new version after a change in replica mode");
            f.admin("DROP OWNED BY ssb_queue_operator; DROP ROLE ssb_queue_operator");
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
            f.warmUp(Way.ONE_CALL);
            assertEquals(2, f.roundTripsOfACall(Way.ONE_CALL), "the statement with its checks (with the BEGIN), the"
                    + " COMMIT");
            f.admin("UPDATE ssb.service SET queue_name = 'QI' WHERE service_name = 'T'");
            long onQi = f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'");
            f.call(Way.ONE_CALL);
            assertEquals(onQi + 1, f.count("SELECT count(*) FROM ssb.message WHERE queue_name = 'QI'"));
        }
        try (Fixture f = new Fixture(database, true)) {
            assertNotNull(f.broker.catalogCache(), "createSchema true: the triggers installed again");
            assertEquals(PortableSql.CATALOG_TABLES.size(), f.count(new PostgresSql().catalogTriggers()));
        }
    }

    /** {@link CountedSession} and the ways to send. */
    private static final class Fixture implements AutoCloseable {

        private final CountedSession counted;
        final PortableBroker broker;
        final Connection c;
        final BrokerSession s;
        /** The conversation later SENDs go on, begun by the first {@link Way#LATER_SEND} call. */
        private Conversation open;

        /** A broker on the database, its schema prepared (installed only when {@code create}). */
        Fixture(DatabaseConfig database, boolean create) throws Exception {
            this(new CountedSession(database, create));
        }

        private Fixture(CountedSession counted) {
            this.counted = counted;
            broker = counted.broker;
            c = counted.c;
            s = counted.s;
        }

        /** A new database with the schema and the declarations. */
        static Fixture declared(String database) throws Exception {
            return new Fixture(CountedSession.declared(database));
        }

        void declare() throws Exception {
            counted.declare();
        }

        void call(Way way) throws Exception {
            switch (way) {
                case ONE_CALL -> s.beginDialogAndSend("I", "T", "C", DialogOptions.defaults(), "M", BODY);
                case TWO_CALLS -> s.send(s.beginDialog("I", "T", "C", DialogOptions.defaults()).handle(), "M", BODY);
                case LATER_SEND -> {
                    if (open == null) {
                        open = s.beginDialog("I", "T", "C", DialogOptions.defaults());
                    }
                    s.send(open.handle(), "M", BODY);
                }
            }
            counted.commit();
        }

        /** More calls than pgjdbc's prepare threshold (5): the statements are prepared on the server. */
        void warmUp(Way way) throws Exception {
            for (int i = 0; i < 6; i++) {
                call(way);
            }
        }

        long roundTripsOfACall(Way way) throws Exception {
            long before = CountingSocketFactory.roundTrips();
            call(way);
            return CountingSocketFactory.roundTrips() - before;
        }

        void admin(String statements) throws Exception {
            counted.admin(statements);
        }

        long count(String query) throws Exception {
            long n = Jdbc.count(c, query);
            c.commit();
            return n;
        }

        @Override
        public void close() throws SQLException {
            counted.close();
        }
    }
}
