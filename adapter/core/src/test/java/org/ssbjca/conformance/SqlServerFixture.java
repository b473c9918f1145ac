package org.ssbjca.conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.sqlserver.SqlServerBroker;
import org.ssbjca.backend.sqlserver.SqlServerSchema;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MSSQLServerContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A real SQL Server with Service Broker: the one named by {@code SSB_TEST_SQLSERVER_URL} (with
 * {@code SSB_TEST_SQLSERVER_USER} and {@code SSB_TEST_SQLSERVER_PASSWORD}; its database must have Service Broker
 * enabled), or a {@code mcr.microsoft.com/mssql/server:2022-latest} container started by Testcontainers. The server
 * is prepared once per JVM, on first use, and shared by every fixture instance; without a Docker engine the fixture
 * says so in {@link #unavailableReason()} within a second or so and never throws.
 *
 * <p>Preparation: database {@code ssbtest}, {@code ALTER DATABASE ssbtest SET ENABLE_BROKER}, then
 * {@code sql/sqlserver/install.sql}. XA across the container would also need MS DTC configured in it; the
 * conformance suite's XA tests are out of this fixture's reach.
 */
public final class SqlServerFixture implements BackendFixture {

    static final String IMAGE = "mcr.microsoft.com/mssql/server:2022-latest";
    static final String DATABASE = "ssbtest";
    /** The container's local time zone (TZ): +05:30 all year, no daylight saving time. */
    static final String LOCAL_TIME_ZONE = "Asia/Kolkata";
    private static final String DOCKER_SOCKET = "/var/run/docker.sock";

    private static final Object LOCK = new Object();
    /** Prepared once per JVM; null until the first fixture asks. */
    private static Server server;

    /** What one JVM found: a prepared server, or why there is none. */
    private static final class Server {
        final String unavailableReason;
        final ConnectionSource source;
        final SqlServerBroker broker;

        Server(String unavailableReason, ConnectionSource source, SqlServerBroker broker) {
            this.unavailableReason = unavailableReason;
            this.source = source;
            this.broker = broker;
        }
    }

    @Override
    public String name() {
        return "SQL Server";
    }

    @Override
    public String unavailableReason() {
        return server().unavailableReason;
    }

    @Override
    public Broker broker() {
        return available().broker;
    }

    @Override
    public Connection connect() throws SQLException {
        return available().source.open();
    }

    @Override
    public javax.sql.XAConnection connectXa() throws SQLException {
        return available().source.openXa();
    }

    /** {@code KILL session_id} (the id is a number the server gave, so it is written as a literal). */
    @Override
    public SessionEnder sessionEnder(Connection victim) throws SQLException {
        int spid = BackendFixture.queryInt(victim, "SELECT @@SPID");
        return () -> {
            try (Connection admin = connect(); java.sql.Statement st = admin.createStatement()) {
                admin.setAutoCommit(true);
                st.execute("KILL " + spid);
            }
        };
    }

    @Override
    public void setLockTimeout(Connection c, long millis) throws SQLException {
        SqlServerBroker.setLockTimeout(c, millis);
    }

    /** The server is shared by the whole JVM; Testcontainers removes the container when the JVM ends. */
    @Override
    public void close() {
        // nothing to do per fixture
    }

    private static Server available() {
        Server s = server();
        if (s.unavailableReason != null) {
            throw new IllegalStateException(s.unavailableReason);
        }
        return s;
    }

    private static Server server() {
        synchronized (LOCK) {
            if (server == null) {
                server = prepare();
            }
            return server;
        }
    }

    private static Server prepare() {
        String url = System.getenv("SSB_TEST_SQLSERVER_URL");
        if (url != null && !url.isBlank()) {
            DatabaseConfig config = new DatabaseConfig(url, System.getenv("SSB_TEST_SQLSERVER_USER"),
                    System.getenv("SSB_TEST_SQLSERVER_PASSWORD"));
            return install(config,
                    "SQL Server conformance skipped: cannot prepare the database of SSB_TEST_SQLSERVER_URL");
        }
        String noDocker = dockerUnavailable();
        if (noDocker != null) {
            return new Server("SQL Server conformance skipped: no Docker engine reachable (" + noDocker + ")", null,
                    null);
        }
        MSSQLServerContainer<?> container;
        try {
            // a local clock that is not UTC, so that every reading of a time is checked against the server's offset
            container = new MSSQLServerContainer<>(DockerImageName.parse(IMAGE)).acceptLicense()
                    .withEnv("TZ", LOCAL_TIME_ZONE);
            container.start();
        } catch (RuntimeException e) {
            return new Server("SQL Server conformance skipped: the " + IMAGE + " container did not start ("
                    + oneLine(e) + ")", null, null);
        }
        DatabaseConfig master = new DatabaseConfig(container.getJdbcUrl(), container.getUsername(),
                container.getPassword());
        try (Connection c = new ConnectionSource(master).open()) {
            createBrokerDatabase(c);
        } catch (SQLException e) {
            return new Server("SQL Server conformance skipped: cannot create database " + DATABASE + " ("
                    + oneLine(e) + ")", null, null);
        }
        String base = container.getJdbcUrl().replaceAll(";+$", "");
        DatabaseConfig config = new DatabaseConfig(base + ";databaseName=" + DATABASE, container.getUsername(),
                container.getPassword());
        return install(config, "SQL Server conformance skipped: cannot prepare database " + DATABASE);
    }

    /**
     * https://learn.microsoft.com/sql/t-sql/statements/create-database-transact-sql and
     * https://learn.microsoft.com/sql/t-sql/statements/alter-database-transact-sql-set-options (ENABLE_BROKER needs
     * exclusive access, hence ROLLBACK IMMEDIATE; neither statement may run in a transaction).
     */
    private static void createBrokerDatabase(Connection c) throws SQLException {
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            s.execute("IF DB_ID(N'" + DATABASE + "') IS NULL CREATE DATABASE [" + DATABASE + "];");
            s.execute("ALTER DATABASE [" + DATABASE + "] SET ENABLE_BROKER WITH ROLLBACK IMMEDIATE;");
        }
    }

    private static Server install(DatabaseConfig config, String failure) {
        ConnectionSource source = new ConnectionSource(config);
        SqlServerBroker broker = new SqlServerBroker(source, BackgroundRunner.daemonThreads());
        try (Connection c = source.open()) {
            SqlServerSchema.install(c);
        } catch (SQLException | RuntimeException e) {
            return new Server(failure + " (" + oneLine(e) + ")", null, null);
        }
        return new Server(null, source, broker);
    }

    /** @return null when a Docker engine answers, else why not */
    private static String dockerUnavailable() {
        try {
            if (DockerClientFactory.instance().isDockerAvailable()) {
                return null;
            }
        } catch (RuntimeException | LinkageError e) {
            return oneLine(e);
        }
        String host = System.getenv("DOCKER_HOST");
        return "Testcontainers found no Docker environment; DOCKER_HOST is "
                + (host == null || host.isBlank() ? "unset" : host) + ", " + DOCKER_SOCKET
                + (Files.exists(Path.of(DOCKER_SOCKET)) ? " exists" : " does not exist");
    }

    private static String oneLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.replaceAll("\\s+", " ").trim();
    }
}
