package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Installs the adapter's tables on SQL Server for a test, from {@code sql/sqlserver/install.sql} (a test resource of
 * the core module). The adapter never does this itself: on SQL Server an administrator runs the script.
 */
public final class SqlServerSchema {

    /** The install script on the class path (the file {@code sql/sqlserver/install.sql}). */
    public static final String INSTALL_SCRIPT = "org/ssbjca/sql/sqlserver/install.sql";

    private SqlServerSchema() {
    }

    /**
     * Creates the adapter's tables if they are missing. Service Broker must already be enabled in the database (see
     * the script's header).
     *
     * @param connection a connection with DDL rights; runs in auto-commit mode
     * @throws SQLException if a batch fails
     */
    public static void install(Connection connection) throws SQLException {
        SqlScript.run(connection, SqlScript.load(INSTALL_SCRIPT));
    }
}
