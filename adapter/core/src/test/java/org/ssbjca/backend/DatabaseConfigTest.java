package org.ssbjca.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatabaseConfigTest {

    @Test
    void theUrlSelectsTheBackend() {
        assertEquals(BackendKind.SQLSERVER, new DatabaseConfig("jdbc:sqlserver://h;databaseName=d", "u", "p").kind());
        assertEquals(BackendKind.POSTGRESQL, new DatabaseConfig("jdbc:postgresql://h/d", null, null).kind());
        assertEquals(BackendKind.H2, new DatabaseConfig("JDBC:H2:mem:x", null, null).kind());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DatabaseConfig("jdbc:mysql://h/d", null, null));
        assertTrue(e.getMessage().contains("jdbc:sqlserver:"), e.getMessage());
    }

    @Test
    void toStringNeverShowsAPassword() {
        DatabaseConfig c = new DatabaseConfig("jdbc:sqlserver://h;databaseName=d;Password=s3cret;encrypt=false", "u",
                "other-secret");
        assertFalse(c.toString().contains("s3cret"), c.toString());
        assertFalse(c.toString().contains("other-secret"), c.toString());
        assertTrue(c.toString().contains("encrypt=false"), c.toString());
        assertFalse(new DatabaseConfig("jdbc:postgresql://h/d?user=a&password=pw&ssl=true", null, null).toString()
                .contains("pw&"));
    }
}
