package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.docs.Docs;

/**
 * backends.md: on PostgreSQL the adapter's user needs the {@code CREATE} privilege on the database to create the
 * schema; without it the adapter says why, naming the database it could not prepare. A database owned by the server's
 * administrator, the adapter logging in as a new role that only has PostgreSQL's defaults.
 */
class SchemaPrivilegeTest {

    @Test
    void aUserWithoutCreateOnTheDatabaseIsToldWhyTheSchemaCannotBePrepared() throws Exception {
        DatabaseConfig owner = PostgresServer.get().newDatabase("schema_privilege");
        String role = newRole(owner, List.of());
        try {
            try (InboundHarness h = new InboundHarness(new DatabaseConfig(owner.url(), role, "app"), false)) {
                SQLException e = assertThrows(SQLException.class, h.db::prepareSchema);
                assertTrue(e.getMessage().startsWith("cannot prepare the broker schema on POSTGRESQL[")
                        && e.getMessage().contains(", user=" + role + "]: ERROR: permission denied for database"),
                        e.getMessage());
            }
        } finally {
            dropRole(owner, role);
        }
    }

    /**
     * backends.md's DBA way: the owner installs the schema (the adapter's own install scripts, run as the owner) and
     * grants the adapter's user the statements of the page, read from it; the adapter, {@code createSchema} off, then
     * declares, sends and delivers as that user.
     */
    @Test
    void aUserGrantedTheTablesDeliversWithCreateSchemaOff() throws Exception {
        DatabaseConfig owner = PostgresServer.get().newDatabase("schema_granted");
        try (InboundHarness installed = new InboundHarness(owner, false)) {
            installed.db.prepareSchema(); // install.sql and postgresql-catalog-version.sql, as the owner
        }
        List<String> grants = pageGrants();
        assertEquals(3, grants.size(), grants.toString());
        String role = newRole(owner, grants);
        try {
            try (InboundHarness h = InboundHarness.withoutSchemaCreation(
                    new DatabaseConfig(owner.url(), role, "app"))) {
                h.declare();
                List<String> delivered = new CopyOnWriteArrayList<>();
                h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> delivered.add(m.bodyAsText()),
                        true, h.spec());
                h.send("granted");
                await("delivered as the granted user").atMost(Duration.ofSeconds(30))
                        .until(() -> delivered.contains("granted"));
                assertEquals(List.of("granted"), delivered);
            }
        } finally {
            dropRole(owner, role);
        }
    }

    /** @return the GRANT statements of backends.md's SQL block for a DBA, as written */
    private static List<String> pageGrants() {
        return Docs.codeBlocks("docs/guide/backends.md", "## PostgreSQL and H2", "sql").stream()
                .flatMap(String::lines).filter(l -> l.startsWith("GRANT ")).toList();
    }

    /**
     * Creates a login role with PostgreSQL's defaults, then runs {@code grants} for it (written for the user
     * {@code app}).
     *
     * @return the role's name
     */
    private static String newRole(DatabaseConfig owner, List<String> grants) throws SQLException {
        String role = "ssb_app_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(owner.url(), owner.user(), owner.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN PASSWORD 'app'");
            for (String grant : grants) {
                s.execute(grant.replace(" TO app;", " TO " + role)); // as written but for the user's name
            }
        }
        return role;
    }

    /** Drops the role and what the owner granted it. */
    private static void dropRole(DatabaseConfig owner, String role) throws SQLException {
        try (Connection c = DriverManager.getConnection(owner.url(), owner.user(), owner.password());
                Statement s = c.createStatement()) {
            s.execute("DROP OWNED BY " + role);
            s.execute("DROP ROLE " + role);
        }
    }
}
