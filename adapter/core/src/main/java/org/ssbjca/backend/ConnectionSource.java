package org.ssbjca.backend;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.XAConnection;
import javax.sql.XADataSource;

/**
 * Opens physical connections for a {@link DatabaseConfig}: XA connections for work inside JTA transactions, plain
 * connections for the adapter's own bookkeeping. Pooling is the container's job; this class only connects.
 */
public final class ConnectionSource {

    private final DatabaseConfig config;
    private final XADataSource xaDataSource;

    /** @param config where to connect */
    public ConnectionSource(DatabaseConfig config) {
        this.config = config;
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
