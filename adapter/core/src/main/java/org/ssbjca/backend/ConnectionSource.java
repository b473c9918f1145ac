package org.ssbjca.backend;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.XAConnection;
import javax.sql.XADataSource;
import org.ssbjca.support.AdapterLog;

/**
 * Opens physical connections for a {@link DatabaseConfig}: XA connections for work inside JTA transactions, plain
 * connections for the adapter's own bookkeeping. Pooling is the container's job; this class only connects.
 */
public final class ConnectionSource {

    private static final AdapterLog LOG = AdapterLog.of(ConnectionSource.class);
    /** The kinds of database this class loader's adapter has connected to: the drivers to release when it stops. */
    private static final Set<BackendKind> USED = ConcurrentHashMap.newKeySet();

    private final DatabaseConfig config;
    private final XADataSource xaDataSource;

    /** @param config where to connect */
    public ConnectionSource(DatabaseConfig config) {
        this.config = config;
        USED.add(config.kind());
        this.xaDataSource = createXaDataSource(config);
    }

    /** @return the configuration */
    public DatabaseConfig config() {
        return config;
    }

    /**
     * @return a new XA connection
     * @throws SQLException if the database refuses
     */
    public XAConnection openXa() throws SQLException {
        return config.user() == null ? xaDataSource.getXAConnection()
                : xaDataSource.getXAConnection(config.user(), config.password());
    }

    /**
     * @return a new plain JDBC connection with auto-commit off
     * @throws SQLException if the database refuses
     */
    public Connection open() throws SQLException {
        Properties p = new Properties();
        if (config.user() != null) {
            p.setProperty("user", config.user());
        }
        if (config.password() != null) {
            p.setProperty("password", config.password());
        }
        java.sql.Driver driver;
        switch (config.kind()) {
            case H2:
                driver = new org.h2.Driver();
                break;
            case POSTGRESQL:
                driver = new org.postgresql.Driver();
                break;
            default:
                driver = new com.microsoft.sqlserver.jdbc.SQLServerDriver();
        }
        Connection c = driver.connect(config.url(), p);
        if (c == null) {
            throw new SQLException("the " + config.kind() + " driver did not accept " + config);
        }
        c.setAutoCommit(false);
        return c;
    }

    /**
     * Deregisters the bundled JDBC drivers that the adapter's own class loader registered. A driver registers itself
     * with {@link java.sql.DriverManager} when its class is loaded, and {@code DriverManager} holds it, and so the
     * class loader of an undeployed RAR, for the life of the JVM; the resource adapter calls this when it stops. Each
     * driver is released through its own API ({@code isRegistered}/{@code deregister}, H2's {@code unload}): listing
     * {@code DriverManager.getDrivers()} from here would load and register this loader's copy of every driver
     * another deployment registered. Only the drivers of the kinds of database the adapter connected to are touched,
     * so that a driver never used is not loaded now. When the adapter runs from the application class path (tests,
     * an embedded use), the drivers are the JVM's and are left alone.
     */
    public static void releaseDrivers() {
        ClassLoader own = ConnectionSource.class.getClassLoader();
        if (own == null || own == ClassLoader.getSystemClassLoader()) {
            return;
        }
        if (USED.remove(BackendKind.POSTGRESQL)) {
            release("org.postgresql.Driver", () -> {
                if (org.postgresql.Driver.isRegistered()) {
                    org.postgresql.Driver.deregister();
                }
            });
        }
        if (USED.remove(BackendKind.H2)) {
            release("org.h2.Driver", org.h2.Driver::unload);
        }
        if (USED.remove(BackendKind.SQLSERVER)) {
            release("com.microsoft.sqlserver.jdbc.SQLServerDriver", () -> {
                if (com.microsoft.sqlserver.jdbc.SQLServerDriver.isRegistered()) {
                    com.microsoft.sqlserver.jdbc.SQLServerDriver.deregister();
                }
            });
        }
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
            case H2: {
                org.h2.jdbcx.JdbcDataSource ds = new org.h2.jdbcx.JdbcDataSource();
                ds.setURL(config.url());
                return ds;
            }
            case POSTGRESQL: {
                org.postgresql.xa.PGXADataSource ds = new org.postgresql.xa.PGXADataSource();
                ds.setUrl(config.url());
                return ds;
            }
            default: {
                com.microsoft.sqlserver.jdbc.SQLServerXADataSource ds =
                        new com.microsoft.sqlserver.jdbc.SQLServerXADataSource();
                ds.setURL(config.url());
                return ds;
            }
        }
    }
}
