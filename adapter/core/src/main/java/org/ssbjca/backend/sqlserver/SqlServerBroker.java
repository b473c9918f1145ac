package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.transaction.xa.XAResource;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.backend.Platform;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.backend.SchemaVersion;
import org.ssbjca.support.ConnectionLossXAResource;

/**
 * Native SQL Server Service Broker through mssql-jdbc: every verb is the real T-SQL statement ({@link TSql}), the
 * broker's queues, conversations, timers and lifetimes are SQL Server's own, and readers wait with WAITFOR. The
 * adapter adds only its tables in schema {@code ssb} (priorities, delivery attempts, dead letters), created by
 * {@code sql/sqlserver/install.sql}.
 *
 * <p>XA branches are started tightly coupled ({@link TightlyCoupledXAResource}). Nothing runs in the background, so
 * the {@link BackgroundRunner} is not used.
 */
public final class SqlServerBroker implements Broker {

    /** {@code SERVERPROPERTY('EngineEdition')} of Azure SQL Database. */
    static final int AZURE_SQL_DATABASE_EDITION = 5;

    /**
     * The version of sql/sqlserver/install.sql this backend's statements are written for: 5 added
     * {@code ssb.message_trace} and {@code ssb.send_traced}. Numbered apart from the portable schema's.
     */
    static final int SCHEMA = 5;

    private final ConnectionSource source;
    private final DatabaseConfig config;
    private volatile Platform platform;
    private final QueueSignals signals = new QueueSignals();
    private final org.ssbjca.backend.BrokerIdentity identity = new org.ssbjca.backend.BrokerIdentity(true);
    private final GroupPresence priorities = new GroupPresence();
    private final GroupPresence holds = GroupPresence.ofHolds();

    /**
     * @param source where the database is
     * @param runner background task runner; SQL Server needs none
     */
    public SqlServerBroker(ConnectionSource source, BackgroundRunner runner) {
        this.source = source;
        this.config = source.config();
        if (config.kind() != BackendKind.SQLSERVER) {
            throw new IllegalArgumentException("not a SQL Server database: " + config);
        }
    }

    @Override
    public BackendKind kind() {
        return BackendKind.SQLSERVER;
    }

    @Override
    public DatabaseConfig config() {
        return config;
    }

    @Override
    public BrokerSession session(Connection connection) {
        return new SqlServerSession(signals, priorities, holds, connection);
    }

    @Override
    public org.ssbjca.backend.BrokerDoctor doctor(Connection connection) {
        return new SqlServerDoctor(connection);
    }

    @Override
    public org.ssbjca.backend.BrokerIdentity identity() {
        return identity;
    }

    @Override
    public DeliveryLedger ledger(Connection connection) {
        return new SqlServerLedger(connection);
    }

    @Override
    public org.ssbjca.backend.table.TableQueue tableQueue(org.ssbjca.backend.table.TableDefinition.Resolved table) {
        return new SqlServerTableQueue(table);
    }

    @Override
    public BrokerAdmin admin(Connection connection) {
        return new SqlServerAdmin(connection);
    }

    /**
     * @return the driver's resource wrapped so that every branch starts tightly coupled, then as every backend's
     *         (a lost connection, mssql-jdbc's SQL state {@code 08S01}, reported as {@code XAER_RMFAIL})
     */
    @Override
    public XAResource xaResource(XAResource driverResource) {
        return driverResource instanceof ConnectionLossXAResource ? driverResource
                : Broker.super.xaResource(new TightlyCoupledXAResource(driverResource));
    }

    /** Checks the version of the objects {@code sql/sqlserver/install.sql} installed; never creates them. */
    @Override
    public void prepareSchema(Connection connection, boolean create) throws SQLException {
        SchemaVersion.check(connection, TSqlLedger.SCHEMA_VERSION, SCHEMA, "sql/sqlserver/install.sql (as a DBA)");
    }

    /** Asks the server its engine edition once (one connection, one statement), then remembers it. */
    @Override
    public Platform platform() throws SQLException {
        Platform p = platform;
        if (p == null) {
            try (Connection c = source.open()) {
                p = platformOf(c);
                c.rollback();
            }
            platform = p;
        }
        return p;
    }

    /**
     * Returns the platform a connection reaches: {@link Platform#AZURE_SQL_DATABASE} for engine edition 5, else
     * {@link Platform#COMPLETE} (SQL Server, Azure SQL Managed Instance: Service Broker there, and XA once MS DTC and
     * the XA procedures are set up).
     *
     * @param connection a connection to the server
     * @throws SQLException on a database error
     */
    public static Platform platformOf(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(TSqlAdmin.ENGINE_EDITION);
            try (ResultSet rs = s.getResultSet()) {
                return rs.next() && rs.getInt(1) == AZURE_SQL_DATABASE_EDITION ? Platform.AZURE_SQL_DATABASE
                        : Platform.COMPLETE;
            }
        }
    }

    @Override
    public QueueSignals signals() {
        return signals;
    }

    /**
     * Sets how long statements of this connection wait for a lock, for the rest of the session (SET LOCK_TIMEOUT).
     *
     * @param connection the connection
     * @param millis -1 to wait forever, 0 not to wait, else milliseconds
     * @throws SQLException on error
     */
    public static void setLockTimeout(Connection connection, long millis) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(TSql.setLockTimeout(millis));
        }
    }

    /** Nothing to stop: SQL Server waits for messages itself. Idempotent. */
    @Override
    public void close() {
        // no background work
    }

    @Override
    public String toString() {
        return "SqlServerBroker[" + config + "]";
    }
}
