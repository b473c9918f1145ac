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
        DatabaseConfig db = "H2".equals(backend)
                ? new DatabaseConfig("jdbc:h2:mem:schema-version-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "")
                : PostgresServer.get().newDatabase("schema_version");
        ConnectionSource source = new ConnectionSource(db);
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                new PortableOptions(500, 1000, Clock.systemUTC()));
             Connection c = source.open()) {
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
