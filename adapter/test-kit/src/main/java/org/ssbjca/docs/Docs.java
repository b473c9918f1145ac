package org.ssbjca.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The project's documentation as tests read it: {@code README.md} and the pages under {@code docs/}, by their path
 * from the repository's root, so that a test checks the text a user reads. Works from any module's directory.
 */
public final class Docs {

    private Docs() {
    }

    /** @return the repository's root: the nearest directory up from the module's that holds README.md and docs/ */
    public static Path root() {
        Path dir = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("README.md")) && Files.isDirectory(d.resolve("docs"))) {
                return d;
            }
        }
        throw new IllegalStateException("no README.md with a docs/ beside it above " + dir);
    }

    /** @return the file of a page, e.g. {@code path("docs/reference/messages.md")} */
    public static Path path(String page) {
        return root().resolve(page);
    }

    /** @return the text of a page, e.g. {@code page("docs/reference/messages.md")} */
    public static String page(String page) {
        try {
            return Files.readString(path(page));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param page a page's path from the root
     * @param heading a heading line as written, e.g. {@code "## Recipe"}
     * @return that heading's section: from the heading to the next heading of the same or a higher level (lines in
     *         code blocks are not headings), or to the end of the page
     * @throws IllegalArgumentException when the page has no such heading
     */
    public static String section(String page, String heading) {
        List<String> lines = page(page).lines().toList();
        int level = level(heading);
        int start = -1;
        boolean fence = false;
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            if (line.startsWith("```")) {
                fence = !fence;
            }
            if (start < 0) {
                if (!fence && line.equals(heading)) {
                    start = 0;
                    out.append(line).append('\n');
                }
                continue;
            }
            if (!fence && level(line) > 0 && level(line) <= level) {
                break;
            }
            out.append(line).append('\n');
        }
        if (start < 0) {
            throw new IllegalArgumentException(page + " has no heading " + heading);
        }
        return out.toString();
    }

    /**
     * @param page a page's path from the repository's root
     * @param heading a heading line as written
     * @param language the info string of the blocks, e.g. {@code "sql"}
     * @return the code blocks of that language in the heading's {@link #section}, in order, each without its fences
     */
    public static List<String> codeBlocks(String page, String heading, String language) {
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        for (String line : section(page, heading).lines().toList()) {
            if (block == null && line.equals("```" + language)) {
                block = new StringBuilder();
            } else if (block != null && line.equals("```")) {
                blocks.add(block.toString());
                block = null;
            } else if (block != null) {
                block.append(line).append('\n');
            }
        }
        return blocks;
    }

    /** @return a heading line's level (the number of leading #), 0 for any other line */
    static int level(String line) {
        int n = 0;
        while (n < line.length() && line.charAt(n) == '#') {
            n++;
        }
        return n > 0 && n < line.length() && line.charAt(n) == ' ' ? n : 0;
    }
}
