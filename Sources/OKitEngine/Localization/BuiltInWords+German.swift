extension BuiltInWords {
    /// German: the words iOS shows in OKit's screens under German (Zurück, Bearbeiten, Fertig, Sichern,
    /// Abbrechen, Löschen, …), and OKit's own alerts in German.
    static let german: [String: String] = [
        "Back": "Zurück", "Edit": "Bearbeiten", "Done": "Fertig", "Save": "Sichern", "Close": "Schließen",
        "Add": "Hinzufügen", "Menu": "Menü", "Help": "Hilfe", "More": "Mehr", "Delete": "Löschen",
        "Search": "Suchen", "All": "Alle",
        "OK": "OK", "Cancel": "Abbrechen", "Yes": "Ja", "No": "Nein",
        "Confirm Deletion": "Löschen bestätigen",
        "Do you really want to delete entry?": "Möchten Sie den Eintrag wirklich löschen?",
        "Select an action": "Aktion auswählen",
        "Actions": "Aktionen", "Alert": "Hinweis", "editing": "in Bearbeitung",
        "New %@": "Neu: %@",
        "Enter %@ for this %@": "%1$@ für %2$@ eingeben",
        "Password": "Passwort",
        "%@ is required": "%@ ist erforderlich",
        "%@ must be at least %@": "%@ muss mindestens %@ sein",
        "%@ must be at most %@": "%@ darf höchstens %@ sein",
        "%@ must be at most %@ character": "%@ darf höchstens %@ Zeichen haben",
        "%@ must be at most %@ characters": "%@ darf höchstens %@ Zeichen haben",
        "%@ is not in the expected format": "%@ hat nicht das erwartete Format",
        "%@ is not valid": "%@ ist ungültig",
        "Close menu": "Menü schließen", "Breadcrumb": "Pfad", "Tabs": "Tabs", "Scope": "Bereich",
        "Index": "Index", "More rows": "Weitere Zeilen", "%@ of %@": "%@ von %@", "Move up": "Nach oben",
        "Move down": "Nach unten", "Checked": "Ausgewählt", "Decrease": "Verringern", "Increase": "Erhöhen",
        "Field %@": "Feld %@", "Locked": "Gesperrt", "Passphrase": "Passphrase", "Unlock": "Entsperren",
        "Offline: the database is out of reach. You can read; changes are kept and stored when it is back.":
            "Offline: Die Datenbank ist nicht erreichbar. Lesen geht; Änderungen werden aufbewahrt und gespeichert, sobald sie wieder erreichbar ist.",
    ]
}
