package org.ssbjca.support;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/** The platform's XML parser, configured safely: namespace aware, no DTD, no external entities. */
public final class Xml {

    private static final ThreadLocal<DocumentBuilder> PARSER = ThreadLocal.withInitial(Xml::newParser);

    private Xml() {
    }

    /**
     * Parses an XML document with a parser of this thread.
     *
     * @param bytes an XML document
     * @return the parsed document
     * @throws SAXException if it is not well-formed
     */
    public static Document parse(byte[] bytes) throws SAXException {
        DocumentBuilder parser = PARSER.get();
        parser.reset();
        parser.setErrorHandler(new DefaultHandler());
        try {
            return parser.parse(new ByteArrayInputStream(bytes));
        } catch (IOException e) {
            throw new SAXException(e);
        }
    }

    private static DocumentBuilder newParser() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            return f.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("no usable XML parser", e);
        }
    }
}
