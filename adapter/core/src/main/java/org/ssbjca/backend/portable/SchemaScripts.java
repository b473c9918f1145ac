package org.ssbjca.backend.portable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the portable schema scripts shipped from {@code sql/} (on the class path under {@code org/ssbjca/sql/}).
 * Statements end with a semicolon at the end of a line; lines starting with {@code --} are comments.
 */
final class SchemaScripts {

    private SchemaScripts() {
    }

    static void run(Connection c, String folder, String script, boolean serialize) throws SQLException {
        List<String> statements = statements(read(folder + "/" + script));
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            if (serialize) {
                // Several JVMs may start at once; one installs, the others wait and find everything there.
                s.execute("SELECT pg_advisory_xact_lock(7320014)");
            }
            for (String sql : statements) {
                s.execute(sql);
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    static List<String> statements(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\r?\n")) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().trim();
                out.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (current.toString().trim().length() > 0) {
            throw new IllegalArgumentException("script ends without a semicolon: " + current);
        }
        return out;
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
