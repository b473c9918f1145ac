package org.ssbjca.backend.sqlserver;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the guides' T-SQL recipes and sql/sqlserver/install.sql say of a procedure's parameters. */
final class RecipeProcedures {

    private RecipeProcedures() {
    }

    /** Returns the parameters a recipe names ({@code @name = value}), without the {@code @}. */
    static Set<String> named(String recipe) {
        Set<String> named = new TreeSet<>();
        Matcher arg = Pattern.compile("@(\\w+) = ").matcher(recipe);
        while (arg.find()) {
            named.add(arg.group(1));
        }
        return named;
    }

    /** Returns the parameters install.sql declares for {@code procedure}, without the {@code @}. */
    static Set<String> parametersOf(String procedure) {
        String install = SqlScript.load("org/ssbjca/sql/sqlserver/install.sql");
        int start = install.indexOf("ALTER PROCEDURE " + procedure + "\n");
        if (start < 0) {
            throw new AssertionError("install.sql alters no procedure " + procedure);
        }
        String header = install.substring(start, install.indexOf("\nAS\n", start));
        Set<String> declared = new TreeSet<>();
        Matcher param = Pattern.compile("\n\\s+@(\\w+) [A-Z]").matcher(header);
        while (param.find()) {
            declared.add(param.group(1));
        }
        return declared;
    }
}
