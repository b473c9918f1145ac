package org.ssbjca.backend.portable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs the portable schema scripts shipped from {@code sql/} (on the class path under {@code org/ssbjca/sql/}), each
 * in one transaction.
 */
final class SchemaScripts {

    private SchemaScripts() {
    }

    static void run(Connection c, String folder, String script, boolean serialize) throws SQLException {
        String text = read(folder + "/" + script);
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

    private static String read(String path) {
        String resource = "org/ssbjca/sql/" + path;
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
