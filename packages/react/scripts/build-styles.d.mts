export declare const styleParts: string[];
export declare const stylesheetPath: string;
export declare const sourceStylesheetPath: string;
export declare function buildStylesheet(): string;
export declare function sourceStylesheet(): string;
