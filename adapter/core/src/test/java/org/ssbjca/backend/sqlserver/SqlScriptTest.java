package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.brokers.Brokers;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.portable.PortableOptions;

class SqlScriptTest {

    @Test
    void splitsOnGoLinesOnly() {
        String script = "-- header comment\n"
                + "CREATE TABLE a (x INT);\n"
                + "GO\n"
                + "  go  \n"
                + "INSERT INTO a VALUES (1); -- GO here is not a separator\n"
                + "SELECT 'GO';\r\n"
                + "Go;\n"
                + "-- only a comment\n"
                + "GO\n"
                + "SELECT 2;";
        assertEquals(List.of("-- header comment\nCREATE TABLE a (x INT);",
                "INSERT INTO a VALUES (1); -- GO here is not a separator\nSELECT 'GO';", "SELECT 2;"),
                SqlScript.batches(script));
        assertThrows(IllegalArgumentException.class, () -> SqlScript.batches("SELECT 1;\nGO 5\n"));
    }

    @Test
    void everyInstallBatchIsGuardedSoTheScriptCanRunAgain() {
        for (String name : new String[] {"install.sql", "sample-install.sql"}) {
            List<String> batches = SqlScript.batches(SqlScript.load("org/ssbjca/sql/sqlserver/" + name));
            assertTrue(batches.size() >= 7, name + ": " + batches.size() + " batches");
            for (String batch : batches) {
                String code = code(batch);
                // ALTER PROCEDURE, after a guarded CREATE of a stub, is idempotent itself (its body may INSERT)
                if ((code.contains("CREATE ") || code.contains("INSERT ")) && !code.startsWith("ALTER PROCEDURE ")) {
                    assertTrue(code.startsWith("IF "), name + ": unguarded batch\n" + batch);
                }
            }
        }
    }

    @Test
    void everyUninstallBatchIsGuarded() {
        for (String name : new String[] {"uninstall.sql", "sample-uninstall.sql"}) {
            for (String batch : SqlScript.batches(SqlScript.load("org/ssbjca/sql/sqlserver/" + name))) {
                String code = code(batch);
                if (code.startsWith("DROP TABLE")) {
                    assertTrue(code.lines().allMatch(l -> l.startsWith("DROP TABLE IF EXISTS ")), batch);
                } else if (code.contains("DROP ")) {
                    assertTrue(code.startsWith("IF "), name + ": unguarded batch\n" + batch);
                }
            }
        }
    }

    /**
     * Issue 45 point 10: DROP SERVICE does not refuse a service with conversations (it deletes the service's messages
     * from its queue and sends an error to the far side of each open conversation); what refuses it is a conversation
     * priority that names it (https://learn.microsoft.com/sql/t-sql/statements/drop-service-transact-sql).
     */
    @Test
    void theSampleUninstallSaysWhatDropServiceDoes() {
        String header = SqlScript.batches(SqlScript.load("org/ssbjca/sql/sqlserver/sample-uninstall.sql")).get(0)
                .lines().takeWhile(l -> l.startsWith("--")).collect(java.util.stream.Collectors.joining(" "))
                .replace("-- ", "");
        assertFalse(header.contains("cannot be dropped while it has conversations"), header);
        assertTrue(header.contains("sends an error to the far side"), header);
        assertTrue(header.contains("conversation priority"), header);
    }

    @Test
    void theGrantScriptGrantsEachPermissionToTheRoleOnly() {
        List<String> batches = SqlScript.batches(SqlScript.load("org/ssbjca/sql/sqlserver/grant-role.sql"));
        List<String> statements = new java.util.ArrayList<>();
        for (String batch : batches) {
            code(batch).lines().map(String::strip).forEach(statements::add);
        }
        assertEquals(List.of(
                "IF DATABASE_PRINCIPAL_ID(N'SSB_ADAPTER') IS NULL",
                "CREATE ROLE [SSB_ADAPTER];",
                "GRANT RECEIVE, SELECT ON OBJECT::[DBO].[ECHOSERVICEQUEUE] TO [SSB_ADAPTER];",
                "GRANT RECEIVE, SELECT ON OBJECT::[DBO].[ECHOCLIENTQUEUE] TO [SSB_ADAPTER];",
                "GRANT SEND ON SERVICE::[ECHOSERVICE] TO [SSB_ADAPTER];",
                "GRANT REFERENCES ON CONTRACT::[ECHOCONTRACT] TO [SSB_ADAPTER];",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON SCHEMA::[SSB] TO [SSB_ADAPTER];",
                "GRANT EXECUTE ON OBJECT::[SSB].[SCHEDULE_SEND] TO [SSB_ADAPTER];",
                "GRANT EXECUTE ON OBJECT::[SSB].[SEND_TRACED] TO [SSB_ADAPTER];",
                "GRANT VIEW DEFINITION TO [SSB_ADAPTER];"), statements);
        for (String statement : statements) {
            if (statement.startsWith("GRANT ")) {
                assertTrue(statement.matches(
                        "GRANT [A-Z ,]+( ON [A-Z]+::\\[[A-Z]+\\](\\.\\[[A-Z_]+\\])?)? TO \\[SSB_ADAPTER\\];"),
                        "GRANT <permissions> [ON <class>::<securable>] TO <principal>: " + statement);
            }
        }
    }

    @Test
    void installSchemaRunsEveryBatchInAutoCommitAndRestoresTheSetting() throws SQLException {
        FakeJdbc jdbc = new FakeJdbc();
        Connection c = jdbc.connection();
        c.setAutoCommit(false);
        SqlServerBroker broker = new SqlServerBroker(new ConnectionSource(
                new DatabaseConfig("jdbc:sqlserver://localhost;databaseName=x", null, null)),
                BackgroundRunner.daemonThreads());
        SqlServerSchema.install(c);
        List<String> expected = SqlScript.batches(SqlScript.load(SqlServerSchema.INSTALL_SCRIPT));
        assertEquals(expected.size(), jdbc.calls.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), jdbc.calls.get(i).sql);
        }
        assertEquals(false, c.getAutoCommit());
    }

    @Test
    void aFailingBatchIsNamed() {
        FakeJdbc jdbc = new FakeJdbc().nothing().error(2714, "There is already an object named 'x'.");
        SQLException e = assertThrows(SQLException.class,
                () -> SqlScript.run(jdbc.connection(), "SELECT 1;\nGO\nCREATE TABLE x (y INT);\nGO\nSELECT 3;"));
        assertTrue(e.getMessage().startsWith("batch 2 failed: There is already an object named 'x'."), e.getMessage());
        assertEquals(2714, e.getErrorCode());
        assertEquals(2, jdbc.calls.size());
    }

    @Test
    void brokersCreatesTheSqlServerBackendForSqlServerUrls() {
        try (Broker broker = Brokers.create(new ConnectionSource(new DatabaseConfig(
                "jdbc:sqlserver://localhost:1433;databaseName=ssb", "sa", "secret")), BackgroundRunner.daemonThreads(),
                PortableOptions.defaults())) {
            assertTrue(broker instanceof SqlServerBroker, broker.getClass().getName());
            assertTrue(!broker.toString().contains("secret"), broker.toString());
        }
    }

    /** The batch without its comment lines, upper case. */
    private static String code(String batch) {
        StringBuilder b = new StringBuilder();
        batch.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("--"))
                .forEach(l -> b.append(l).append('\n'));
        return b.toString().toUpperCase(Locale.ROOT);
    }
}
