package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.SchemaVersion;
import org.ssbjca.conformance.PostgresServer;

/**
 * The version of the portable schema (issue 12): an adapter that may create the schema upgrades one recorded at an
 * older version (the install script is idempotent) and refuses one of a newer version; without {@code createSchema}
 * it refuses both, naming what to run. Starts from the schema this release installs.
 */
class SchemaVersionTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void olderSchemasAreUpgradedOrRefusedAndNewerOnesRefused(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "schema_version"));
        try (PortableBroker broker = broker(source); Connection c = source.open()) {
            broker.prepareSchema(c, true);
            assertEquals(SchemaVersion.CURRENT, version(c), "this release's schema");

            execute(c, "DELETE FROM ssb.schema_version");
            SQLException refused = assertThrows(SQLException.class, () -> broker.prepareSchema(c, false));
            assertTrue(refused.getMessage().contains("run sql/portable/install.sql"), refused.getMessage());
            broker.prepareSchema(c, true);
            assertEquals(SchemaVersion.CURRENT, version(c), "an older schema upgraded by the install script");

            execute(c, "INSERT INTO ssb.schema_version (version) VALUES (" + (SchemaVersion.CURRENT + 1) + ")");
            SQLException newer = assertThrows(SQLException.class, () -> broker.prepareSchema(c, true));
            assertTrue(newer.getMessage().contains("version " + (SchemaVersion.CURRENT + 1) + ", newer than this"),
                    newer.getMessage());
        }
    }

    /**
     * A database installed by release 1's script (kept as a test resource, {@code org/ssbjca/sql/v1/}) with a message
     * waiting: refused without {@code createSchema}, naming the script; upgraded with it, the message still there and
     * the tables of version 2 (ssb.conversation_hold) present.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aVersion1SchemaIsUpgraded(String backend) throws Exception {
        ConnectionSource source = new ConnectionSource(database(backend, "schema_v1"));
        try (PortableBroker broker = broker(source); Connection c = source.open()) {
            c.setAutoCommit(false);
            try (java.io.InputStream in = getClass().getClassLoader()
                    .getResourceAsStream("org/ssbjca/sql/v1/portable-install.sql")) {
                execute(c, new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            }
            assertEquals(1, version(c), "release 1's schema");
            execute(c, "INSERT INTO ssb.service_queue (queue_name) VALUES ('Q')");
            execute(c, "INSERT INTO ssb.message (queue_name, conversation_group_id, conversation_handle,"
                    + " message_sequence_number, message_type_name, enqueued_at) VALUES ('Q', '"
                    + UUID.randomUUID() + "', '" + UUID.randomUUID() + "', 0, 'DEFAULT', CURRENT_TIMESTAMP)");

            SQLException refused = assertThrows(SQLException.class, () -> broker.prepareSchema(c, false));
            assertTrue(refused.getMessage().contains("at version 1, older than this adapter's (" + SchemaVersion.CURRENT
                    + "): run sql/portable/install.sql"), refused.getMessage());
            broker.prepareSchema(c, true);
            assertEquals(SchemaVersion.CURRENT, version(c), "upgraded");
            assertEquals(1, Jdbc.count(c, "SELECT COUNT(*) FROM ssb.message"), "the waiting message kept");
            assertEquals(0, Jdbc.count(c, "SELECT COUNT(*) FROM ssb.conversation_hold"), "version 2's table");
            assertEquals(0, Jdbc.count(c, "SELECT COUNT(trace_context) FROM ssb.message"),
                    "version 4's column, NULL in the waiting message");
            c.commit();
        }
    }

    /** @return a new, empty database of the backend */
    private static DatabaseConfig database(String backend, String name) {
        return "H2".equals(backend)
                ? new DatabaseConfig("jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "")
                : PostgresServer.get().newDatabase(name);
    }

    private static PortableBroker broker(ConnectionSource source) {
        return new PortableBroker(source, BackgroundRunner.daemonThreads(), new PortableOptions(500, 1000,
                Clock.systemUTC()));
    }

    private static long version(Connection c) throws SQLException {
        long v = Jdbc.count(c, PortableSql.SCHEMA_VERSION);
        c.commit();
        return v;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
        c.commit();
    }
}
