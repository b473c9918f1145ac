package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;

/**
 * The portable schema, installed by the adapter's own install script on H2 and on PostgreSQL, read back from the
 * databases' catalogs (JDBC metadata): both have the same tables, columns (type, length, nullability), primary keys,
 * indexes and seed rows; every table and sequence the statements of {@link PortableSql} name exists; and running the
 * script again changes nothing. PostgreSQL also has what {@code sql/portable/postgresql-catalog-version.sql} adds
 * ({@link #POSTGRESQL_ONLY}), which only its own statements name.
 */
class PortableSchemaTest {

    /** The table of {@code sql/portable/postgresql-catalog-version.sql}, left out of the comparison. */
    private static final Set<String> POSTGRESQL_ONLY = Set.of("catalog_version");
    private static Connection h2;
    private static Connection pg;

    @BeforeAll
    static void install() throws SQLException {
        h2 = DriverManager.getConnection("jdbc:h2:mem:portable_schema;DB_CLOSE_DELAY=-1", "sa", "");
        DatabaseConfig config = PostgresServer.get().newDatabase("portable_schema");
        pg = DriverManager.getConnection(config.url(), config.user(), config.password());
        SchemaScripts.install(h2, false);
        SchemaScripts.install(pg, true);
        SchemaScripts.installCatalogVersion(pg);
    }

    @AfterAll
    static void close() throws SQLException {
        h2.close();
        if (pg != null) { // null when this run leaves PostgreSQL out (TestTier)
            pg.close();
        }
    }

    @Test
    void h2AndPostgresqlHaveTheSameTablesColumnsKeysIndexesAndSeedRows() throws SQLException {
        Catalog onH2 = Catalog.read(h2);
        Catalog onPg = Catalog.read(pg);
        assertEquals(onPg.columns, onH2.columns, "columns: PostgreSQL, then H2");
        assertEquals(onPg.primaryKeys, onH2.primaryKeys, "primary keys: PostgreSQL, then H2");
        assertEquals(onPg.indexes, onH2.indexes, "indexes: PostgreSQL, then H2");
        assertEquals(onPg.seedRows, onH2.seedRows, "seed rows: PostgreSQL, then H2");
        assertEquals(16, onH2.primaryKeys.size(), "every table has a primary key: " + onH2.primaryKeys.keySet());
        assertEquals(12, onH2.indexes.size(), "the script's CREATE INDEX statements: " + onH2.indexes.keySet());
    }

    @Test
    void everyTableAndSequenceTheStatementsNameExistsOnBoth() throws Exception {
        Pattern object = Pattern.compile("\\bssb\\.(\\w+)");
        for (Connection c : new Connection[] {h2, pg}) {
            Set<String> named = new TreeSet<>();
            for (String statement : statements(PortableSql.of(c == h2 ? Dialect.H2 : Dialect.POSTGRESQL))) {
                Matcher m = object.matcher(statement);
                while (m.find()) {
                    named.add(m.group(1).toLowerCase(Locale.ROOT));
                }
            }
            assertTrue(named.size() >= 12, "statements name the schema's objects: " + named);
            assertEquals(c == pg, named.containsAll(POSTGRESQL_ONLY), "only PostgreSQL's statements name " + named);
            Set<String> present = objects(c);
            assertTrue(present.containsAll(named), c.getMetaData().getDatabaseProductName() + " lacks "
                    + difference(named, present));
        }
    }

    @Test
    void runningTheScriptAgainChangesNothing() throws SQLException {
        for (Connection c : new Connection[] {h2, pg}) {
            Catalog before = Catalog.read(c);
            SchemaScripts.install(c, c == pg);
            if (c == pg) {
                SchemaScripts.installCatalogVersion(c);
            }
            Catalog after = Catalog.read(c);
            assertEquals(before.columns, after.columns);
            assertEquals(before.indexes, after.indexes);
            assertEquals(before.seedRows, after.seedRows, "seed rows are inserted once");
        }
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }

    /** Every statement text of the dialect's class ({@link PortableSqlGoldenTest#texts}). */
    private static Set<String> statements(PortableSql sql) throws IllegalAccessException {
        return new TreeSet<>(PortableSqlGoldenTest.texts(sql));
    }

    /** Tables and sequences of schema ssb, lower case (JDBC metadata lists H2's sequences under no type). */
    private static Set<String> objects(Connection c) throws SQLException {
        Set<String> out = new TreeSet<>();
        try (ResultSet rs = c.getMetaData().getTables(null, schema(c), "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                out.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
            }
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sequence_name FROM"
                + " information_schema.sequences WHERE LOWER(sequence_schema) = 'ssb'")) {
            while (rs.next()) {
                out.add(rs.getString(1).toLowerCase(Locale.ROOT));
            }
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
        return out;
    }

    private static String schema(Connection c) throws SQLException {
        return c.getMetaData().storesUpperCaseIdentifiers() ? "SSB" : "ssb";
    }

    /** What the catalog of one database says about schema ssb, in words both databases use. */
    private static final class Catalog {

        /** The same type under its two spellings: PostgreSQL's short name to H2's. */
        private static final Map<String, String> TYPE_NAMES = Map.of(
                "varchar", "CHARACTER VARYING", "bpchar", "CHARACTER", "int4", "INTEGER", "int8", "BIGINT",
                "bool", "BOOLEAN", "uuid", "UUID", "bytea", "BINARY VARYING", "timestamptz", "TIMESTAMP WITH TIME ZONE");

        final Map<String, String> columns = new TreeMap<>();
        final Map<String, String> primaryKeys = new TreeMap<>();
        final Map<String, String> indexes = new TreeMap<>();
        final Map<String, Long> seedRows = new TreeMap<>();

        static Catalog read(Connection c) throws SQLException {
            Catalog catalog = new Catalog();
            DatabaseMetaData md = c.getMetaData();
            String schema = schema(c);
            Set<String> tables = new TreeSet<>();
            try (ResultSet rs = md.getTables(null, schema, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            tables.removeIf(table -> POSTGRESQL_ONLY.contains(table.toLowerCase(Locale.ROOT)));
            for (String table : tables) {
                String t = table.toLowerCase(Locale.ROOT);
                try (ResultSet rs = md.getColumns(null, schema, table, "%")) {
                    while (rs.next()) {
                        String type = rs.getString("TYPE_NAME");
                        type = TYPE_NAMES.getOrDefault(type, type.toUpperCase(Locale.ROOT));
                        boolean sized = type.startsWith("CHARACTER");
                        catalog.columns.put(t + "." + rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT),
                                type + (sized ? "(" + rs.getInt("COLUMN_SIZE") + ")" : "")
                                + (rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls ? " NOT NULL" : "")
                                + ("YES".equals(rs.getString("IS_AUTOINCREMENT")) ? " IDENTITY" : ""));
                    }
                }
                Map<Short, String> key = new TreeMap<>();
                try (ResultSet rs = md.getPrimaryKeys(null, schema, table)) {
                    while (rs.next()) {
                        key.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                    }
                }
                if (!key.isEmpty()) {
                    catalog.primaryKeys.put(t, String.join(", ", key.values()));
                }
                Map<String, Map<Short, String>> byIndex = new TreeMap<>();
                try (ResultSet rs = md.getIndexInfo(null, schema, table, false, false)) {
                    while (rs.next()) {
                        String name = rs.getString("INDEX_NAME");
                        // H2 also indexes every foreign key, under names of its own; PostgreSQL does not.
                        if (rs.getBoolean("NON_UNIQUE") && name != null && !name.startsWith("CONSTRAINT_INDEX")) {
                            byIndex.computeIfAbsent(t + "." + name.toLowerCase(Locale.ROOT),
                                    k -> new TreeMap<>()).put(rs.getShort("ORDINAL_POSITION"),
                                    rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT)
                                    + ("D".equals(rs.getString("ASC_OR_DESC")) ? " DESC" : ""));
                        }
                    }
                }
                byIndex.forEach((name, cols) -> catalog.indexes.put(name, String.join(", ", cols.values())));
            }
            try (Statement s = c.createStatement()) {
                for (String table : new String[] {"message_type", "contract", "contract_message_type",
                    "schema_version"}) {
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ssb." + table)) {
                        rs.next();
                        catalog.seedRows.put(table, rs.getLong(1));
                    }
                }
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
            return catalog;
        }
    }
}
