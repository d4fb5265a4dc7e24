import Foundation

extension BuiltInWords {
    /// French: the words iOS shows in OKit's screens under French (Retour, Modifier, Enregistrer, Annuler,
    /// Supprimer, …), and OKit's own alerts in French, addressing the person as vous. Written with plain spaces
    /// before `:` `;` `?` `!` and inside « »; `frenchSpacing` makes them no-break spaces, as French typesetting has
    /// them, so a line never starts with a colon.
    static let french: [String: String] = frenchSpacing([
        "Back": "Retour", "Edit": "Modifier", "Done": "Terminé", "Save": "Enregistrer", "Close": "Fermer",
        "Add": "Ajouter", "Menu": "Menu", "Help": "Aide", "More": "Plus", "Delete": "Supprimer",
        "Search": "Rechercher", "All": "Tous",
        "OK": "OK", "Cancel": "Annuler", "Yes": "Oui", "No": "Non",
        "Confirm Deletion": "Confirmer la suppression",
        "Do you really want to delete entry?": "Voulez-vous vraiment supprimer cette entrée ?",
        "Select an action": "Choisissez une action",
        "Actions": "Actions", "Alert": "Alerte", "editing": "en modification",
        "New %@": "Nouvel élément : %@",
        "Enter %@ for this %@": "Saisissez %1$@ (%2$@)",
        "Password": "Mot de passe",
        "%@ is required": "%@ est obligatoire",
        "%@ must be at least %@": "%@ doit valoir au moins %@",
        "%@ must be at most %@": "%@ doit valoir au plus %@",
        "%@ must be at most %@ character": "%@ doit comporter au plus %@ caractère",
        "%@ must be at most %@ characters": "%@ doit comporter au plus %@ caractères",
        "%@ is not in the expected format": "%@ n’a pas le format attendu",
        "%@ is not valid": "%@ n’est pas valide",
        "%1$@: \"%2$@\" is not a number like %3$@": "%1$@ : « %2$@ » n’est pas un nombre comme %3$@",
        "%1$@ takes a whole number: \"%2$@\" has a fraction": "%1$@ n’accepte que des nombres entiers : « %2$@ » a une partie décimale",
        "%1$@: \"%2$@\" is too large a number": "%1$@ : « %2$@ » est un nombre trop grand",
        "%1$@: \"%2$@\" is out of range: a whole number from %3$@ to %4$@": "%1$@ : « %2$@ » est hors limites : un nombre entier de %3$@ à %4$@",
        "%1$@: \"%2$@\" is not a date like %3$@ or 2019-05-01T10:00:00Z": "%1$@ : « %2$@ » n’est pas une date comme %3$@ ou 2019-05-01T10:00:00Z",
        "%1$@: \"%2$@\" is neither %3$@ nor %4$@": "%1$@ : « %2$@ » n’est ni %3$@ ni %4$@",
        "cell \"%1$@\" has no option %2$@ (options: %3$@; pass a name, an entity id or a 1-based position)": "« %1$@ » n’a pas d’option %2$@ (options : %3$@ ; indiquez un nom, un identifiant ou une position à partir de 1)",
        "cell \"%1$@\" has no option %2$@ (options: %3$@; pass an option's text or its 1-based position)": "« %1$@ » n’a pas d’option %2$@ (options : %3$@ ; indiquez le texte d’une option ou sa position à partir de 1)",
        "cell \"%1$@\" has no segment %2$@ (segments: %3$@; pass a title or a 0-based index)": "« %1$@ » n’a pas de segment %2$@ (segments : %3$@ ; indiquez un titre ou un index à partir de 0)",
        "none": "aucune",
        "\"%@\"": "« %@ »",
        "This page was out of date, so nothing was changed; here is the current one.": "Cette page n’était plus à jour, donc rien n’a été modifié ; voici la page actuelle.",
        "This changes the data of everyone using the app: log in with the token first (/login).": "Cela modifie les données de tous les utilisateurs de l’app : connectez-vous d’abord avec le jeton (/login).",
        "The app is offline: your change is kept here and stored when the database is back.": "L’app est hors ligne : votre modification est conservée ici et sera enregistrée au retour de la base de données.",
        "Your change could not be stored (%@); it shows here but is not kept yet — tell whoever runs this server.": "Votre modification n’a pas pu être enregistrée (%@) ; elle s’affiche ici mais n’est pas encore conservée — prévenez la personne qui gère ce serveur.",
        "Someone else changed %1$@ of this %2$@ first: it is now %3$@; your %4$@ was not stored (it is kept in the server's conflict record).": "Quelqu’un d’autre a modifié %1$@ de cette entrée (%2$@) avant vous : c’est maintenant %3$@ ; votre valeur %4$@ n’a pas été enregistrée (elle est conservée dans le registre des conflits du serveur).",
        "That screen no longer exists; this is the nearest one that does.": "Cet écran n’existe plus ; voici le plus proche qui existe encore.",
        "The backup \"%@\" was uploaded and checked; restore it from the list.": "La sauvegarde « %@ » a été envoyée et vérifiée ; restaurez-la depuis la liste.",
        "The upload was not kept: %@": "Le fichier envoyé n’a pas été conservé : %@",
        "Answer the open question first.": "Répondez d’abord à la question en cours.",
        "%@ can be changed in edit mode only (Edit).": "%@ ne se modifie qu’en mode modification (Modifier).",
        "That row is no longer in the list.": "Cette ligne n’est plus dans la liste.",
        "That is not on this page (any more); nothing was changed.": "Cela n’est pas (plus) sur cette page ; rien n’a été modifié.",
        "The search text is too long (%1$@ characters; at most %2$@); the search is unchanged.": "Le texte de recherche est trop long (%1$@ caractères ; au plus %2$@) ; la recherche reste inchangée.",
        "%@ does not take that value; nothing was changed.": "%@ n’accepte pas cette valeur ; rien n’a été modifié.",
        "Too many wrong attempts from your address: try again in %@ seconds.": "Trop de tentatives erronées depuis votre adresse : réessayez dans %@ secondes.",
        "Live updates are off: this page does not change by itself now; reload it to see the latest.": "Les mises à jour en direct sont coupées : cette page ne change plus d’elle-même ; rechargez-la pour voir la dernière version.",
        "Not found": "Introuvable", "Refused": "Refusé", "Busy": "Occupé",
        "Something went wrong": "Une erreur s’est produite", "Go to the app": "Aller à l’app", "There is nothing to post to here.": "Rien ne peut être envoyé ici.",
        "There is no such screen in this app.": "Cet écran n’existe pas dans cette app.",
        "This form belongs to a session that ended; reload the page and try again.": "Ce formulaire appartient à une session terminée ; rechargez la page et réessayez.",
        "Live updates belong to a session; reload the page.": "Les mises à jour en direct appartiennent à une session ; rechargez la page.",
        "The form's security token is wrong or missing; nothing was changed. Reload the page and try again.": "Le jeton de sécurité du formulaire est erroné ou manquant ; rien n’a été modifié. Rechargez la page et réessayez.",
        "Too many people are using this app right now (%@ sessions); try again later.": "Trop de personnes utilisent cette app en ce moment (%@ sessions) ; réessayez plus tard.",
        "Too many pages are open with live updates right now (%@); reload later.": "Trop de pages sont ouvertes avec des mises à jour en direct en ce moment (%@) ; rechargez plus tard.",
        "This screen could not be shown: %@": "Cet écran n’a pas pu être affiché : %@",
        "The app could not start a session: %@": "L’app n’a pas pu ouvrir de session : %@",
        "Backups hold everyone's data: log in with the token first.": "Les sauvegardes contiennent les données de tout le monde : connectez-vous d’abord avec le jeton.",
        "%@ uploads are being read right now; try again in a moment.": "%@ fichiers envoyés sont en cours de lecture ; réessayez dans un instant.",
        "The upload is too large (more than %@ MiB).": "Le fichier envoyé est trop volumineux (plus de %@ Mio).",
        "%1$@ is refused: %2$@": "%1$@ refusé : %2$@",
        "%@ needs every field filled in": "%@ : veuillez remplir tous les champs",
        "Clear": "Effacer", "Name": "Nom", "Confirm Password": "Confirmer le mot de passe", "New Backup": "Nouvelle sauvegarde",
        "Name the backup": "Nommez la sauvegarde",
        "Name the backup and choose its password": "Nommez la sauvegarde et choisissez son mot de passe",
        "the passwords do not match": "les mots de passe ne correspondent pas", "The password of \"%@\"": "Le mot de passe de « %@ »",
        "Restore Backup": "Restaurer la sauvegarde", "Replace all data with the backup \"%@\"?": "Remplacer toutes les données par la sauvegarde « %@ » ?",
        "Delete the backup \"%@\"?": "Supprimer la sauvegarde « %@ » ?",
        "Backup Failed": "Échec de la sauvegarde", "Restore Failed": "Échec de la restauration",
        "Delete Failed": "Échec de la suppression", "Create Backup": "Créer une sauvegarde", "Restore": "Restaurer",
        "Download": "Télécharger", "Upload Backup": "Envoyer une sauvegarde", "Backup file": "Fichier de sauvegarde", "Upload": "Envoyer",
        "Password (of a secure backup)": "Mot de passe (d’une sauvegarde sécurisée)",
        "Backups": "Sauvegardes",
        "That is not the password of the backup \"%@\"; nothing was changed.": "Ce n’est pas le mot de passe de la sauvegarde « %@ » ; rien n’a été modifié.",
        "The backup \"%@\" is secure: it needs its password.": "La sauvegarde « %@ » est sécurisée : il faut son mot de passe.",
        "A backup named \"%@\" exists already; choose another name.": "Une sauvegarde nommée « %@ » existe déjà ; choisissez un autre nom.",
        "\"%@\" cannot name a backup: use letters, digits, spaces, - and _.": "« %@ » ne peut pas nommer une sauvegarde : utilisez des lettres, des chiffres, des espaces, - et _.",
        "The backup \"%@\" cannot be restored: it is damaged or was not made by this app; nothing was changed.": "La sauvegarde « %@ » ne peut pas être restaurée : elle est endommagée ou n’a pas été faite par cette app ; rien n’a été modifié.",
        "Close menu": "Fermer le menu", "Breadcrumb": "Fil d’Ariane", "Tabs": "Onglets", "Scope": "Portée",
        "Index": "Index", "More rows": "Plus de lignes", "%@ of %@": "%@ sur %@", "Move up": "Monter",
        "Move down": "Descendre", "Checked": "Coché", "Decrease": "Diminuer", "Increase": "Augmenter",
        "Field %@": "Champ %@", "Locked": "Verrouillé", "Passphrase": "Phrase secrète", "Unlock": "Déverrouiller",
        "Offline: the database is out of reach. You can read; changes are kept and stored when it is back.":
            "Hors ligne : la base de données est inaccessible. Vous pouvez consulter ; les modifications sont conservées et enregistrées dès son retour.",
        "covered": "verrouillée", "search": "recherche", "scopes": "portées", "index": "index",
        "the database is out of reach: reads go on, changes are stored when it is back": "la base de données est inaccessible : la lecture continue, les modifications sont enregistrées à son retour",
        "authenticate to continue; foreground comes back": "authenticate pour continuer ; foreground revient",
        "presented · close": "superposée · close", "… %@ more": "… %@ de plus", "options": "options", "image": "image", "%1$@: %2$@": "%1$@ : %2$@",
    ])

    /// French spacing: a no-break space (U+00A0) for the space before `:` `;` `?` `!` and inside « ».
    static func frenchSpacing(_ table: [String: String]) -> [String: String] {
        table.mapValues { text in
            var out = text
            for (plain, bound) in [(" :", "\u{A0}:"), (" ;", "\u{A0};"), (" ?", "\u{A0}?"), (" !", "\u{A0}!"),
                                   ("« ", "«\u{A0}"), (" »", "\u{A0}»")] {
                out = out.replacingOccurrences(of: plain, with: bound)
            }
            return out
        }
    }
}
