package org.ssbjca.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.XAConnection;
import org.junit.jupiter.api.Test;
import org.ssbjca.conformance.PostgresServer;

/** The session settings {@link ConnectionSource} gives PostgreSQL connections, with and without options in the URL. */
class ConnectionSourceTest {

    /**
     * The adapter's connections carry no planner setting of their own: they are the ones the application's SQL runs on
     * ({@code jdbcConnection()}, a table bean's JDBC work), and a session without sequential scans costs whatever must
     * scan at about 1e10, far above {@code jit_above_cost}.
     */
    @Test
    void postgresqlConnectionsKeepTheServersPlannerSettings() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("connection_options");
        ConnectionSource source = new ConnectionSource(db);
        assertBothShow(source, "enable_seqscan", "on");
    }

    @Test
    void optionsInTheUrlAreKept() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("connection_url_options");
        String separator = db.url().contains("?") ? "&" : "?";
        DatabaseConfig withOptions = new DatabaseConfig(db.url() + separator
                + "options=-c%20statement_timeout=1234%20-c%20enable_seqscan=off", db.user(), db.password());
        ConnectionSource source = new ConnectionSource(withOptions);
        try (Connection c = source.open()) {
            assertEquals("1234ms", show(c, "statement_timeout"));
            assertEquals("off", show(c, "enable_seqscan"), "the URL's own setting");
        }
        XAConnection xa = source.openXa();
        try (Connection c = xa.getConnection()) {
            assertEquals("1234ms", show(c, "statement_timeout"));
            assertEquals("off", show(c, "enable_seqscan"));
        } finally {
            xa.close();
        }
    }

    /**
     * WildFly deregisters from {@link java.sql.DriverManager} the drivers an undeployed application carried, by class
     * name, and with them the adapter's own PostgreSQL driver when the application sees it (its
     * {@code Dependencies: deployment.ssb-jca.rar}) and bundles pgjdbc as well: a redeploy of such an application then
     * left every reader failing with "No suitable driver found". The adapter's PostgreSQL connections do not go
     * through {@code DriverManager}.
     */
    @Test
    void postgresqlConnectionsOpenWhileTheDriverIsNotRegistered() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("connection_unregistered");
        ConnectionSource source = new ConnectionSource(db);
        java.util.List<java.sql.Driver> removed = new java.util.ArrayList<>();
        for (java.sql.Driver d : java.util.Collections.list(java.sql.DriverManager.getDrivers())) {
            if (d instanceof org.postgresql.Driver) {
                java.sql.DriverManager.deregisterDriver(d);
                removed.add(d);
            }
        }
        try {
            assertEquals(false, removed.isEmpty(), "the PostgreSQL driver was registered");
            assertBothShow(source, "enable_seqscan", "on");
        } finally {
            for (java.sql.Driver d : removed) {
                java.sql.DriverManager.registerDriver(d);
            }
        }
    }

    /** A configuration without a user of its own connects as the user its URL names, plain and XA. */
    @Test
    void theUserTheUrlNamesConnects() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("connection_url_user");
        String separator = db.url().contains("?") ? "&" : "?";
        DatabaseConfig inUrl = new DatabaseConfig(db.url() + separator + "user=" + db.user() + "&password="
                + db.password(), null, null);
        assertBothShow(new ConnectionSource(inUrl), "session_authorization", db.user());
    }

    /** A plain and an XA connection of {@code source} both open and have {@code setting} at {@code value}. */
    private static void assertBothShow(ConnectionSource source, String setting, String value) throws Exception {
        try (Connection c = source.open()) {
            assertEquals(value, show(c, setting));
        }
        XAConnection xa = source.openXa();
        try (Connection c = xa.getConnection()) {
            assertEquals(value, show(c, setting));
        } finally {
            xa.close();
        }
    }

    private static String show(Connection c, String setting) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
