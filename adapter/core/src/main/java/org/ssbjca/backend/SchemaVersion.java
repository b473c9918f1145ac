package org.ssbjca.backend;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The version of the adapter's own tables ({@code ssb.schema_version}, written by the install scripts) this adapter
 * works with, and the check each backend runs before its first use of a database: a database prepared by another
 * version of the adapter is refused with a message that says what to run, instead of failing later on a missing
 * column or table.
 */
public final class SchemaVersion {

    /** The version of the portable schema this adapter's statements are written for. */
    public static final int CURRENT = 4;

    private SchemaVersion() {
    }

    /**
     * Returns the version recorded, 0 when none is or the version table is missing.
     *
     * @param c a connection to the database
     * @param versionQuery the backend's statement that reads the highest version, 0 when there is none
     * @throws SQLException if the database cannot be read
     */
    public static long read(Connection c, String versionQuery) throws SQLException {
        try {
            return Jdbc.count(c, versionQuery);
        } catch (SQLException e) {
            if (!tableMissing(e)) {
                throw e;
            }
            return 0;
        } finally {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        }
    }

    /**
     * Checks that the database holds the schema version this adapter needs.
     *
     * @param c a connection to the database
     * @param versionQuery the backend's statement that reads the highest version, 0 when there is none
     * @param installScript the script that installs (and upgrades) the schema, as the message names it
     * @throws SQLException if the version table is missing or holds another version (state 55000), or the database
     *         cannot be read
     */
    public static void check(Connection c, String versionQuery, String installScript) throws SQLException {
        check(c, versionQuery, CURRENT, installScript);
    }

    /**
     * Checks that the database holds the given schema version, for a backend whose install script numbers its
     * versions apart from {@link #CURRENT}.
     *
     * @param c a connection to the database
     * @param versionQuery the backend's statement that reads the highest version, 0 when there is none
     * @param required the version the backend's statements are written for
     * @param installScript the script that installs (and upgrades) the schema, as the message names it
     * @throws SQLException if the version table is missing or holds another version (state 55000), or the database
     *         cannot be read
     */
    public static void check(Connection c, String versionQuery, int required, String installScript)
            throws SQLException {
        require(read(c, versionQuery), required, installScript);
    }

    /**
     * Fails unless a version read is the one this adapter needs.
     *
     * @param version a version {@link #read} returned
     * @param installScript the script that installs (and upgrades) the schema, as the message names it
     * @throws SQLException if it is not {@link #CURRENT} (state 55000)
     */
    public static void require(long version, String installScript) throws SQLException {
        require(version, CURRENT, installScript);
    }

    private static void require(long version, int required, String installScript) throws SQLException {
        if (version > required) {
            throw new SQLException("the adapter's tables are at version " + version + ", newer than this adapter's ("
                    + required + "): deploy the adapter that installed them, or a newer one", "55000");
        }
        if (version < required) {
            throw new SQLException("the adapter's tables are " + (version == 0 ? "missing or of a version before 1"
                    : "at version " + version) + ", older than this adapter's (" + required + "): run "
                    + installScript + " on the database to install or upgrade them", "55000");
        }
    }

    /**
     * A missing table or schema: SQL state 42S02 (H2, SQL Server), 42P01 or 3F000 (PostgreSQL), H2's 90079 (schema
     * not found), or SQL Server error 208.
     */
    private static boolean tableMissing(SQLException e) {
        String state = e.getSQLState();
        return "42S02".equals(state) || "42102".equals(state) || "42P01".equals(state) || "3F000".equals(state)
                || "90079".equals(state) || e.getErrorCode() == 208;
    }
}
