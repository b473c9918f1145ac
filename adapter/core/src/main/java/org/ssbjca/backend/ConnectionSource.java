package org.ssbjca.backend;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.ResourceBundle;
import javax.sql.XAConnection;
import javax.sql.XADataSource;
import javax.transaction.xa.XAException;
import javax.transaction.xa.Xid;
import org.ssbjca.support.AdapterLog;

/**
 * Opens physical connections for a {@link DatabaseConfig}: XA connections for work inside JTA transactions, plain
 * connections for the adapter's own bookkeeping. Pooling is the container's job; this class only connects. It sets no
 * session setting of its own: the application's SQL on a connection the adapter hands out, and the adapter's own
 * statements, are planned as the server and the URL's options say.
 */
public final class ConnectionSource {

    private static final AdapterLog LOG = AdapterLog.of(ConnectionSource.class);

    private final DatabaseConfig config;
    private final XADataSource xaDataSource;
    /** PostgreSQL: the data source's URL; null for the other databases. */
    private final String postgresqlUrl;

    /** @param config where to connect */
    public ConnectionSource(DatabaseConfig config) {
        this.config = config;
        this.xaDataSource = createXaDataSource(config);
        this.postgresqlUrl = xaDataSource instanceof org.postgresql.ds.common.BaseDataSource pg ? pg.getUrl() : null;
    }

    /** Returns the configuration. */
    public DatabaseConfig config() {
        return config;
    }

    /**
     * Returns a new XA connection.
     *
     * @throws SQLException if the database refuses
     */
    public XAConnection openXa() throws SQLException {
        if (config.kind() == BackendKind.POSTGRESQL) {
            return new PostgresqlXaConnection(openPostgresql().unwrap(org.postgresql.core.BaseConnection.class));
        }
        return config.user() == null ? xaDataSource.getXAConnection()
                : xaDataSource.getXAConnection(config.user(), config.password());
    }

    /**
     * A PostgreSQL connection from the driver itself, with the data source's URL. Not through
     * {@link java.sql.DriverManager}, as pgjdbc's data sources go: WildFly deregisters from it, by class name, the
     * drivers an undeployed application carried, the adapter's own among them when the application bundles pgjdbc and
     * sees the adapter's classes, and every later connection would fail with "No suitable driver".
     */
    private Connection openPostgresql() throws SQLException {
        org.postgresql.ds.common.BaseDataSource ds = (org.postgresql.ds.common.BaseDataSource) xaDataSource;
        // as the data source's getConnection(): the configured user, else the one its URL names
        Properties p = new Properties();
        String user = config.user() != null ? config.user() : ds.getUser();
        String password = config.user() != null ? config.password() : ds.getPassword();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        Connection c = PostgresqlDriver.INSTANCE.connect(postgresqlUrl, p);
        if (c == null) {
            throw new SQLException("the PostgreSQL driver did not accept " + config);
        }
        return c;
    }

    /**
     * Returns a new plain JDBC connection with auto-commit off.
     *
     * @throws SQLException if the database refuses
     */
    public Connection open() throws SQLException {
        Properties p = credentials();
        Connection c = switch (config.kind()) {
            case H2 -> new org.h2.Driver().connect(config.url(), p);
            case POSTGRESQL -> openPostgresql();
            default -> new com.microsoft.sqlserver.jdbc.SQLServerDriver().connect(config.url(), p);
        };
        if (c == null) {
            throw new SQLException("the " + config.kind() + " driver did not accept " + config);
        }
        c.setAutoCommit(false);
        return c;
    }

    /**
     * pgjdbc's XA connection, whose branch completions wait for a statement of {@link Statements} that carries its
     * transaction's {@code BEGIN}: that statement runs with the driver's auto-commit on, and pgjdbc refuses to roll
     * back or commit then, after its XA resource has forgotten the branch (a rollback from a transaction manager's
     * reaper, on its own thread, would leave the transaction open on the server for the connection's next one). Both
     * hold the driver's connection's monitor ({@link Statements#beginMonitor}); nothing else of pgjdbc's takes it.
     */
    private static final class PostgresqlXaConnection extends org.postgresql.xa.PGXAConnection {

        private final Object monitor;

        PostgresqlXaConnection(org.postgresql.core.BaseConnection connection) throws SQLException {
            super(connection);
            this.monitor = Statements.beginMonitor(connection);
        }

        @Override
        public int prepare(Xid xid) throws XAException {
            synchronized (monitor) {
                return super.prepare(xid);
            }
        }

        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            synchronized (monitor) {
                super.commit(xid, onePhase);
            }
        }

        @Override
        public void rollback(Xid xid) throws XAException {
            synchronized (monitor) {
                super.rollback(xid);
            }
        }
    }

    /** The adapter's PostgreSQL driver, used directly ({@link #openPostgresql}); loaded on a PostgreSQL's first use. */
    private static final class PostgresqlDriver {
        static final java.sql.Driver INSTANCE = new org.postgresql.Driver();
    }

    private Properties credentials() {
        Properties p = new Properties();
        if (config.user() != null) {
            p.setProperty("user", config.user());
        }
        if (config.password() != null) {
            p.setProperty("password", config.password());
        }
        return p;
    }

    /**
     * Releases what the bundled JDBC drivers registered in the JVM on behalf of the adapter's class loader, so that the
     * loader of an undeployed RAR can be collected; the resource adapter calls this when it stops. A driver registers
     * itself with {@link java.sql.DriverManager} when its class is initialised, whoever initialised it (WildFly
     * instantiates every driver a deployment carries, WFLYJCA0004, whether the adapter uses it or not), and
     * {@code DriverManager} holds it for the life of the JVM; each is deregistered through its own API
     * ({@code isRegistered}/{@code deregister}, H2's {@code unload}): listing {@code DriverManager.getDrivers()} from
     * here would load and register this loader's copy of every driver another deployment registered. The resource
     * bundles the drivers loaded (SQL Server's messages) are dropped from the JVM's cache too. When the adapter runs
     * from the application class path (tests, an embedded use), the drivers are the JVM's and are left alone.
     */
    public static void releaseDrivers() {
        ClassLoader own = ConnectionSource.class.getClassLoader();
        if (own == null || own == ClassLoader.getSystemClassLoader()) {
            return;
        }
        release("org.postgresql.Driver", () -> {
            if (org.postgresql.Driver.isRegistered()) {
                org.postgresql.Driver.deregister();
            }
        });
        release("org.h2.Driver", org.h2.Driver::unload);
        release("com.microsoft.sqlserver.jdbc.SQLServerDriver", () -> {
            if (com.microsoft.sqlserver.jdbc.SQLServerDriver.isRegistered()) {
                com.microsoft.sqlserver.jdbc.SQLServerDriver.deregister();
            }
        });
        ResourceBundle.clearCache(own);
    }

    private static void release(String driver, Release release) {
        try {
            release.run();
            LOG.driverDeregistered(driver);
        } catch (SQLException | RuntimeException | LinkageError e) {
            LOG.driverNotDeregistered(e, driver);
        }
    }

    /** Deregisters one driver. */
    @FunctionalInterface
    private interface Release {
        void run() throws SQLException;
    }

    private static XADataSource createXaDataSource(DatabaseConfig config) {
        switch (config.kind()) {
            case H2 -> {
                org.h2.jdbcx.JdbcDataSource ds = new org.h2.jdbcx.JdbcDataSource();
                ds.setURL(config.url());
                return ds;
            }
            case POSTGRESQL -> {
                org.postgresql.xa.PGXADataSource ds = new org.postgresql.xa.PGXADataSource();
                ds.setUrl(config.url());
                return ds;
            }
            default -> {
                com.microsoft.sqlserver.jdbc.SQLServerXADataSource ds =
                        new com.microsoft.sqlserver.jdbc.SQLServerXADataSource();
                ds.setURL(config.url());
                return ds;
            }
        }
    }
}
