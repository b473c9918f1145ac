package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;

/**
 * backends.md: on PostgreSQL the adapter's user needs the {@code CREATE} privilege on the database to create the
 * schema; without it the adapter says why, naming the database it could not prepare. A database owned by the server's
 * administrator, the adapter logging in as a new role that only has PostgreSQL's defaults.
 */
class SchemaPrivilegeTest {

    @Test
    void aUserWithoutCreateOnTheDatabaseIsToldWhyTheSchemaCannotBePrepared() throws Exception {
        DatabaseConfig owner = PostgresServer.get().newDatabase("schema_privilege");
        String role = "ssb_app_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(owner.url(), owner.user(), owner.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN PASSWORD 'app'");
        }
        try {
            try (InboundHarness h = new InboundHarness(new DatabaseConfig(owner.url(), role, "app"), false)) {
                SQLException e = assertThrows(SQLException.class, h.db::prepareSchema);
                assertTrue(e.getMessage().startsWith("cannot prepare the broker schema on POSTGRESQL[")
                        && e.getMessage().contains(", user=" + role + "]: ERROR: permission denied for database"),
                        e.getMessage());
            }
        } finally {
            try (Connection c = DriverManager.getConnection(owner.url(), owner.user(), owner.password());
                    Statement s = c.createStatement()) {
                s.execute("DROP ROLE " + role);
            }
        }
    }
}
