package org.ssbjca.backend.sqlserver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs a T-SQL script made of batches separated by lines holding only {@code GO}, as sqlcmd and SSMS do
 * (https://learn.microsoft.com/sql/t-sql/language-elements/sql-server-utilities-statements-go). {@code GO} is not
 * T-SQL: the client splits on it and sends each batch on its own. The scripts are the project's own files from
 * {@code sql/sqlserver} (test resources of the core module), never user input. Test kit only: on SQL Server a DBA runs
 * the scripts, the adapter never does.
 */
public final class SqlScript {

    private SqlScript() {
    }

    /**
     * @param text a script
     * @return its batches, in order, without the GO lines and without empty batches
     * @throws IllegalArgumentException for {@code GO n}, which repeats a batch and has no use here
     */
    public static List<String> batches(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\r?\n", -1)) {
            String trimmed = line.strip().toUpperCase(Locale.ROOT);
            if (trimmed.equals("GO") || trimmed.equals("GO;")) {
                add(out, current);
            } else if (trimmed.startsWith("GO ") && trimmed.substring(3).strip().matches("\\d+;?")) {
                throw new IllegalArgumentException("GO with a count is not supported: " + line.strip());
            } else {
                current.append(line).append('\n');
            }
        }
        add(out, current);
        return out;
    }

    private static void add(List<String> out, StringBuilder current) {
        String batch = current.toString().strip();
        if (!batch.isEmpty() && !onlyComments(batch)) {
            out.add(batch);
        }
        current.setLength(0);
    }

    private static boolean onlyComments(String batch) {
        return batch.lines().map(String::strip).allMatch(l -> l.isEmpty() || l.startsWith("--"));
    }

    /**
     * Runs every batch of a script in auto-commit mode (the scripts are idempotent: each batch checks the catalog
     * first), then restores the connection's auto-commit setting.
     *
     * @param c a connection with the rights the script needs
     * @param text the script
     * @throws SQLException if a batch fails; the message names the batch
     */
    public static void run(Connection c, String text) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            int n = 0;
            for (String batch : batches(text)) {
                n++;
                try {
                    boolean isResultSet = s.execute(batch);
                    while (isResultSet || s.getUpdateCount() != -1) {
                        isResultSet = s.getMoreResults();
                    }
                } catch (SQLException e) {
                    throw new SQLException("batch " + n + " failed: " + e.getMessage() + "\n" + batch,
                            e.getSQLState(), e.getErrorCode(), e);
                }
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    /**
     * @param resource a class path resource, for example {@code org/ssbjca/sql/sqlserver/install.sql}
     * @return its text
     */
    public static String load(String resource) {
        try (InputStream in = SqlScript.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("script " + resource + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read script " + resource, e);
        }
    }
}
