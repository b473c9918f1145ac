package org.ssbjca.backend.portable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs the portable schema's install script, {@code sql/portable/install.sql} (on the class path under
 * {@code org/ssbjca/sql/}): one text that H2 and PostgreSQL both run, in one transaction.
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
        String text = read(INSTALL_SCRIPT);
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
