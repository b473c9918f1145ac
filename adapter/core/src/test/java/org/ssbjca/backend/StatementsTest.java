package org.ssbjca.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A connection's statements are prepared once and run again with new parameters. */
class StatementsTest {

    @Test
    void eachTextIsPreparedOnceAndRunsAgainWithNewParameters() throws Exception {
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID())) {
            List<PreparedStatement> prepared = new ArrayList<>();
            Statements st = new Statements(counting(h2, prepared));
            st.update("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
            for (int i = 0; i < 5; i++) {
                assertEquals(1, st.update("INSERT INTO t VALUES (?, ?)", i, "v" + i));
            }
            assertEquals("v3", st.first("SELECT v FROM t WHERE id = ?", rs -> rs.getString(1), 3));
            assertNull(st.first("SELECT v FROM t WHERE id = ?", rs -> rs.getString(1), 9), "new parameters, no row");
            assertEquals(List.of(0, 1), st.list("SELECT id FROM t WHERE id < ? ORDER BY id", rs -> rs.getInt(1), 2));
            assertTrue(st.exists("SELECT 1 FROM t WHERE id = ?", 4));
            assertFalse(st.exists("SELECT 1 FROM t WHERE id = ?", 7));
            assertThrows(SQLException.class, () -> st.update("INSERT INTO t VALUES (?, ?)", 1, "again"));
            assertEquals(1, st.update("INSERT INTO t VALUES (?, ?)", 5, "v5"), "usable after a failure");

            assertEquals(5, prepared.size(), "one statement per text: " + prepared.size());
            for (PreparedStatement ps : prepared) {
                assertFalse(ps.isClosed(), "kept open for the next call");
            }
        }
    }

    @Test
    void pastTheKeptStatementsFurtherTextsArePreparedAndClosedEachTime() throws Exception {
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID())) {
            List<PreparedStatement> prepared = new ArrayList<>();
            Statements st = new Statements(counting(h2, prepared));
            for (int i = 0; i < 300; i++) {
                assertEquals(Integer.valueOf(i), st.<Integer>first("SELECT " + i, rs -> rs.getInt(1)));
            }
            assertEquals(Integer.valueOf(300), st.<Integer>first("SELECT 300", rs -> rs.getInt(1)));
            assertEquals(Integer.valueOf(300), st.<Integer>first("SELECT 300", rs -> rs.getInt(1)));
            assertEquals(302, prepared.size());
            assertEquals(256, prepared.stream().filter(ps -> !isClosed(ps)).count(), "256 kept, the others closed");
        }
    }

    private static boolean isClosed(PreparedStatement ps) {
        try {
            return ps.isClosed();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The connection, recording every statement it prepares. */
    private static Connection counting(Connection c, List<PreparedStatement> prepared) {
        return (Connection) Proxy.newProxyInstance(StatementsTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object result = method.invoke(c, args);
                    if (method.getName().equals("prepareStatement")) {
                        prepared.add((PreparedStatement) result);
                    }
                    return result;
                });
    }
}
