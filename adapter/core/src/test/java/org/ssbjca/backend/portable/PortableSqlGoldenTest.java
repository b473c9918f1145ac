package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The texts of every statement each dialect's class holds, against {@code portable-sql/<dialect>.sql}: a change of
 * any statement shows in review as a change of that file. With {@code -Dssbjca.golden.write=<dir>} the texts are
 * written to that directory instead, for a deliberate change.
 */
class PortableSqlGoldenTest {

    @Test
    void h2StatementsAreTheGoldenOnes() throws Exception {
        check("h2", PortableSql.of(Dialect.H2));
    }

    @Test
    void postgresqlStatementsAreTheGoldenOnes() throws Exception {
        check("postgresql", PortableSql.of(Dialect.POSTGRESQL));
    }

    private static void check(String name, PortableSql sql) throws Exception {
        String actual = String.join("\n", texts(sql)) + "\n";
        String dir = System.getProperty("ssbjca.golden.write");
        if (dir != null) {
            Files.writeString(Path.of(dir, name + ".sql"), actual, StandardCharsets.UTF_8);
            return;
        }
        assertEquals(golden(name), actual, "statements of " + name);
    }

    /** Every String and String[] field of the class and its superclasses, and the RECEIVE texts for TOP 1 and 7. */
    static List<String> texts(PortableSql sql) throws IllegalAccessException {
        TreeSet<String> out = new TreeSet<>();
        for (Class<?> c = sql.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                f.setAccessible(true);
                Object value = Modifier.isStatic(f.getModifiers()) ? f.get(null) : f.get(sql);
                if (value instanceof String s) {
                    out.add(s);
                } else if (value instanceof String[] array) {
                    for (String s : array) {
                        if (s != null) {
                            out.add(s);
                        }
                    }
                }
            }
        }
        if (sql.receivesInOneStatement()) {
            for (int top : new int[] {1, 7}) {
                for (boolean prioritised : new boolean[] {false, true}) {
                    for (boolean holds : new boolean[] {false, true}) {
                        out.add(sql.receiveNext(top, prioritised, holds));
                    }
                }
            }
        }
        for (int millis : new int[] {250, 10_000}) {
            out.add(sql.lockWait(millis));
        }
        return new ArrayList<>(out);
    }

    private static String golden(String name) throws IOException {
        try (InputStream in = PortableSqlGoldenTest.class.getResourceAsStream("/portable-sql/" + name + ".sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
