package org.ssbjca.conformance;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.tiers.TestTier;

/**
 * The one PostgreSQL server of a test JVM: the one named by {@code SSB_TEST_POSTGRES_URL} (with
 * {@code SSB_TEST_POSTGRES_USER} and {@code SSB_TEST_POSTGRES_PASSWORD}), or an embedded PostgreSQL started on first
 * use with {@code max_prepared_transactions} set so that two-phase XA works. Each fixture gets a database of its own
 * on it, so that one fixture's statistics never reach another's. On a server named by {@code SSB_TEST_POSTGRES_URL},
 * which the build's test JVMs share, each JVM's databases end with its number ({@code ssbjca.test.fork}:
 * {@code _f1}, {@code _f2}), so that two JVMs never drop each other's. Public for the tests of other packages.
 */
public final class PostgresServer {

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,40}");
    private static PostgresServer instance;

    private final EmbeddedPostgres embedded;
    private final DatabaseConfig admin;
    /** What this JVM's database names end with on a shared server: {@code _f} and its fork number; else nothing. */
    private final String suffix;
    /** The server's {@code max_prepared_transactions}, once read. */
    private Integer preparedTransactions;

    private PostgresServer() {
        String url = System.getenv("SSB_TEST_POSTGRES_URL");
        if (url != null && !url.isBlank()) {
            embedded = null;
            admin = new DatabaseConfig(url, System.getenv("SSB_TEST_POSTGRES_USER"),
                    System.getenv("SSB_TEST_POSTGRES_PASSWORD"));
            String fork = System.getProperty("ssbjca.test.fork", "");
            suffix = fork.matches("_f[0-9]{1,3}") ? fork : "";
            return;
        }
        try {
            embedded = EmbeddedPostgres.builder()
                    .setServerConfig("max_prepared_transactions", "40")
                    .setServerConfig("max_connections", "200")
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start embedded PostgreSQL", e);
        }
        admin = new DatabaseConfig(embedded.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
        suffix = "";
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop));
    }

    /**
     * @return the server, started on first use
     * @throws org.opentest4j.TestAbortedException (the test is skipped) when this run leaves PostgreSQL out
     *         ({@link TestTier})
     */
    public static synchronized PostgresServer get() {
        TestTier.assumePostgres();
        if (instance == null) {
            instance = new PostgresServer();
        }
        return instance;
    }

    /**
     * Creates a new, empty database (dropping one of that name first), named {@code fixture} and, on a shared server,
     * this JVM's suffix.
     *
     * @param fixture lower-case letters, digits and underscores
     * @return how to reach it
     */
    public DatabaseConfig newDatabase(String fixture) {
        if (!DATABASE_NAME.matcher(fixture).matches()) {
            throw new IllegalArgumentException("not a test database name: " + fixture);
        }
        String name = fixture + suffix;
        try (Connection c = adminConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name, e);
        }
        String url = admin.url().replaceFirst("/[^/?]*(\\?|$)", "/" + name + "$1");
        return new DatabaseConfig(url, admin.user(), admin.password());
    }

    /**
     * Skips the calling test (with the reason) on a server that cannot prepare transactions: a stock server's
     * {@code max_prepared_transactions = 0}, as named by {@code SSB_TEST_POSTGRES_URL}. The embedded server prepares.
     */
    public synchronized void assumePreparedTransactions() {
        if (preparedTransactions == null) {
            try (Connection c = adminConnection();
                    Statement s = c.createStatement();
                    java.sql.ResultSet rs = s.executeQuery("SHOW max_prepared_transactions")) {
                rs.next();
                preparedTransactions = Integer.parseInt(rs.getString(1));
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read max_prepared_transactions", e);
            }
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(preparedTransactions > 0, () -> "the PostgreSQL server at "
                + admin.url() + " has max_prepared_transactions = 0 (a stock server's default): two-phase commit"
                + " cannot run on it");
    }

    private Connection adminConnection() throws SQLException {
        return DriverManager.getConnection(admin.url(), admin.user(), admin.password());
    }

    private void stop() {
        try {
            embedded.close();
        } catch (IOException e) {
            // the JVM is ending; the data directory is temporary
        }
    }
}
