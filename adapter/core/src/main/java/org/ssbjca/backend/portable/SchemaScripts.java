package org.ssbjca.backend.portable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs the portable schema's install script, {@code sql/portable/install.sql} (on the class path under
 * {@code org/ssbjca/sql/}): one text that H2 and PostgreSQL both run, in one transaction; and on PostgreSQL
 * {@code sql/portable/postgresql-catalog-version.sql} (see {@link CatalogCache}).
 */
final class SchemaScripts {

    private SchemaScripts() {
    }

    /** The install script on the class path. */
    static final String INSTALL_SCRIPT = "org/ssbjca/sql/portable/install.sql";

    /**
     * @param c a connection with DDL rights; committed
     * @param serialize whether to take PostgreSQL's advisory lock first, so that servers install one at a time
     * @throws SQLException if a statement fails; the transaction is rolled back
     */
    static void install(Connection c, boolean serialize) throws SQLException {
        run(c, serialize, INSTALL_SCRIPT);
    }

    /** PostgreSQL's script of the declared objects' version and the triggers that raise it. */
    static final String CATALOG_VERSION_SCRIPT = "org/ssbjca/sql/portable/postgresql-catalog-version.sql";

    /**
     * Runs {@code sql/portable/postgresql-catalog-version.sql}, serialized with the other servers' installs.
     *
     * @param c a PostgreSQL connection with DDL rights; committed
     * @throws SQLException if a statement fails; the transaction is rolled back
     */
    static void installCatalogVersion(Connection c) throws SQLException {
        run(c, true, CATALOG_VERSION_SCRIPT);
    }

    private static void run(Connection c, boolean serialize, String script) throws SQLException {
        String text = read(script);
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            if (serialize) {
                // Several JVMs may start at once; one installs, the others wait and find everything there.
                s.execute("SELECT pg_advisory_xact_lock(7320014)");
            }
            // Both H2 and PostgreSQL run a whole script of semicolon-separated statements in one call.
            s.execute(text);
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static String read(String resource) {
        try (InputStream in = SchemaScripts.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema script " + resource + " is missing from the adapter");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read schema script " + resource, e);
        }
    }
}
